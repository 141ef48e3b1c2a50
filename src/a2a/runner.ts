/**
 * A2A exchanges as durable steps, one job each. The first step checks the agent's health (once
 * per container), sends the user's message (streamed when the card offers it) and maps the answer;
 * a task that is still working when the step ends is waited for without a waiting process: a
 * pushed notification (when the run registered a push URL) or a delayed poll of `GetTask` runs the
 * next step. Messages the agent sends while it works go to the user at once.
 */

import type { SendMessageRequest, TaskPushNotificationConfig } from '@a2a-js/sdk';
import type { A2ASubAgent, AgentInput, Assistant } from '../assistant/index.js';
import type { PreCallHook } from '../extensions/index.js';
import { runPreCallHook } from '../mcp/index.js';
import type { Logger } from '../resilience/index.js';
import type {
  AgentRunner,
  CancelScope,
  CancelTarget,
  SecretStore,
  StepContext,
} from '../runtime/index.js';
import { A2AAgent, type A2AAgentClass } from './agent.js';
import { A2AConnection, type CallScope, isTask } from './connection.js';
import { followUp } from './followUp.js';
import { outgoingMessage, outputOfMessage } from './messages.js';
import { done, fatal, finish, onTask } from './outcomes.js';
import { pushToken, pushUrl } from './push.js';
import { A2ARunData, idsOf } from './runData.js';
import type { A2AStep, A2AStepResult } from './step.js';
import { readStream } from './stream.js';

export interface A2ARunnerOptions {
  readonly assistant: Assistant;
  readonly secrets: SecretStore;
  /** The project's `pre_call_hook` functions, by dotted path. */
  readonly hooks?: Readonly<Record<string, PreCallHook>>;
  /** Classes of agents with a `configuration.module`, by agent name. */
  readonly classes?: Readonly<Record<string, A2AAgentClass>>;
  /** The key push tokens are derived from; without it no push URL is registered. */
  readonly pushKey?: () => Promise<string>;
  /** The base URL for push notifications when an agent configures none (the local stack's). */
  readonly pushBaseUrl?: () => string | undefined;
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

  start(invocation: Parameters<AgentRunner['start']>[0]): A2ARunData {
    return {
      agentId: invocation.agent.name,
      input: invocation.input,
      messageId: `msg-${invocation.input.id}`,
      polls: 0,
      push: false,
      shown: [],
    };
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
      if (data.input) return await this.send(step, data, data.input);
      return await followUp(step, data, () =>
        this.cancel({ agent, conversationId: context.conversationId, data }, scope),
      );
    } catch (error) {
      if (context.signal.aborted) throw error;
      const failure = connection.failure(error);
      if (failure.transient) return { data, next: { type: 'retry', reason: failure.message } };
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

  /** The first step: the message goes out; the answer, or the task's first updates, come back. */
  private async send(step: A2AStep, data: A2ARunData, raw: AgentInput): Promise<A2AStepResult> {
    const { agent, connection, context, scope } = step;
    const input = await step.custom().processInput(raw);
    const hook = agent.configuration.pre_call_hook;
    const hookFn = hook ? this.options.hooks?.[hook] : undefined;
    const credentials =
      hook && hookFn
        ? await runPreCallHook(hook, hookFn, {
            senderId: stringOr(input.metadata.sender_id, context.conversationId),
            agentId: agent.name,
          })
        : {};
    const client = await connection.client(scope);
    const card = await connection.card(scope);
    const push = await this.pushConfig(agent, context, card.capabilities?.pushNotifications);
    const request: SendMessageRequest = {
      tenant: '',
      message: outgoingMessage(input, data.messageId, credentials),
      configuration: {
        acceptedOutputModes: [],
        taskPushNotificationConfig: push,
        returnImmediately: true,
      },
      metadata: undefined,
    };
    const sent: A2ARunData = { ...without(data, 'input'), push: push !== undefined };
    if (card.capabilities?.streaming) {
      return readStream(step, client, sent, request);
    }
    const answer = await client.sendMessage(
      request,
      await connection.requestOptions(scope, client),
    );
    if (!isTask(answer)) return finish(step, sent, outputOfMessage(context.runId, answer));
    return onTask(step, { ...sent, ...idsOf(answer) }, answer, context.runId, []);
  }

  private async pushConfig(
    agent: A2ASubAgent,
    context: StepContext,
    offered: boolean | undefined,
  ): Promise<TaskPushNotificationConfig | undefined> {
    const base = agent.configuration.push_notification_url ?? this.options.pushBaseUrl?.();
    if (!base || !offered || !this.options.pushKey) return undefined;
    const key = await this.options.pushKey();
    return {
      tenant: '',
      id: context.runId,
      taskId: '',
      url: pushUrl(base, context.conversationId, context.runId),
      token: pushToken(key, context.conversationId, context.runId),
      authentication: undefined,
    };
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

function without<T extends object, K extends keyof T>(value: T, key: K): Omit<T, K> {
  const { [key]: _dropped, ...rest } = value;
  return rest;
}

function stringOr(value: unknown, fallback: string): string {
  return typeof value === 'string' && value !== '' ? value : fallback;
}
