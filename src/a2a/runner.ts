/**
 * A2A exchanges as durable steps, one job each. The first step checks the agent's health (once
 * per container), sends the user's message (streamed when the card offers it) and maps the answer;
 * a task that is still working when the step ends is waited for without a waiting process: a
 * pushed notification (when the run registered a push URL) or a delayed poll of `GetTask` runs the
 * next step. Messages the agent sends while it works go to the user at once. The runner sets up
 * each step; sending, the stream, later steps and how a step ends live in files of their own.
 */

import type { A2ASubAgent, Assistant } from '../assistant/index.js';
import type { AgentInvocation } from '../dialogue/index.js';
import type { Logger } from '../resilience/index.js';
import type {
  AgentRunner,
  CancelScope,
  CancelTarget,
  SecretStore,
  StepContext,
} from '../runtime/index.js';
import { A2AAgent, type A2AAgentClass } from './agent.js';
import { A2AConnection, type CallScope } from './connection.js';
import { followUp } from './followUp.js';
import { done, fatal } from './outcomes.js';
import { A2ARunData, startA2ARun } from './runData.js';
import { type SendOptions, send } from './send.js';
import type { A2AStep, A2AStepResult } from './step.js';

export interface A2ARunnerOptions extends SendOptions {
  readonly assistant: Assistant;
  readonly secrets: SecretStore;
  /** Classes of agents with a `configuration.module`, by agent name. */
  readonly classes?: Readonly<Record<string, A2AAgentClass>>;
  readonly logger?: Logger;
  readonly now?: () => number;
  readonly fetch?: typeof fetch;
}

/** Runs A2A agents one exchange, poll or pushed update per job. */
export class A2ARunner implements AgentRunner<A2ARunData> {
  readonly dataSchema = A2ARunData;
  private readonly connections = new Map<string, A2AConnection>();
  private readonly custom = new Map<string, A2AAgent>();
  private readonly now: () => number;

  constructor(private readonly options: A2ARunnerOptions) {
    this.now = options.now ?? Date.now;
  }

  start(invocation: AgentInvocation): A2ARunData {
    return startA2ARun(invocation);
  }

  async step(data: A2ARunData, context: StepContext): Promise<A2AStepResult> {
    const agent = this.agentOf(data.agentId);
    const connection = this.connection(agent);
    const scope: CallScope = {
      signal: context.signal,
      ...(context.deadline !== undefined ? { deadline: context.deadline } : {}),
    };
    const step: A2AStep = {
      agent,
      connection,
      context,
      scope,
      custom: () => this.customOf(agent),
      now: this.now,
      cancelTask: (run) =>
        this.cancel({ agent, conversationId: context.conversationId, data: run }, scope),
    };
    try {
      try {
        await connection.ensureHealthy(scope);
      } catch (error) {
        if (context.signal.aborted) throw error;
        const reason = connection.failure(error).message;
        this.options.logger?.error('A2A agent failed its health check', {
          agent: agent.name,
          reason,
        });
        return done(data, fatal(data, `the health check failed: ${reason}`));
      }
      if (data.input) return await send(step, data, data.input, this.options);
      return await followUp(step, data);
    } catch (error) {
      if (context.signal.aborted) throw error;
      const failure = connection.failure(error);
      if (failure.transient) {
        const wait =
          failure.retryAfterMs !== undefined ? { retryAfterMs: failure.retryAfterMs } : {};
        return { data, next: { type: 'retry', reason: failure.message, ...wait } };
      }
      this.options.logger?.error('A2A exchange failed', {
        agent: agent.name,
        reason: failure.message,
      });
      return done(data, fatal(data, failure.message));
    }
  }

  async cancel(target: CancelTarget<A2ARunData>, scope: CancelScope): Promise<void> {
    const taskId = target.data?.taskId ?? target.session?.task_id;
    if (!taskId || target.agent.protocol !== 'A2A') return;
    const connection = this.connection(target.agent);
    try {
      const client = await connection.client(scope);
      await client.cancelTask(
        { tenant: '', id: taskId, metadata: undefined },
        await connection.requestOptions(scope, client),
      );
      this.options.logger?.debug('A2A task cancelled', { agent: target.agent.name, taskId });
    } catch (error) {
      if (scope.signal.aborted) throw error;
      this.options.logger?.warn('A2A task could not be cancelled', {
        agent: target.agent.name,
        taskId,
        reason: connection.failure(error).message,
      });
    }
  }

  private agentOf(name: string): A2ASubAgent {
    const agent = this.options.assistant.agents[name];
    if (agent?.protocol !== 'A2A') throw new Error(`${name} is not an A2A agent of this assistant`);
    return agent;
  }

  private connection(agent: A2ASubAgent): A2AConnection {
    let connection = this.connections.get(agent.name);
    if (!connection) {
      connection = new A2AConnection({
        agent,
        secrets: this.options.secrets,
        now: this.now,
        ...(this.options.fetch ? { fetch: this.options.fetch } : {}),
      });
      this.connections.set(agent.name, connection);
    }
    return connection;
  }

  private customOf(agent: A2ASubAgent): A2AAgent {
    let custom = this.custom.get(agent.name);
    if (!custom) {
      const Class = this.options.classes?.[agent.name] ?? A2AAgent;
      custom = new Class(agent);
      this.custom.set(agent.name, custom);
    }
    return custom;
  }
}
