/**
 * The ReAct loop as durable steps: each step is one job. A `model` step makes one LLM call and
 * stores its answer; when the answer asks for tools, the run's next step (`tools`) runs them.
 * The model's answer is committed before any tool runs, so its filler text reaches the user
 * exactly once and a crash or retry of the tools step repeats the same calls with the same
 * idempotency keys, never a different set from a new LLM call.
 *
 * When every call of the answer only reads (tools the project declares read-only, and the
 * built-in tools, which change only the run), the model step runs them itself: one job per
 * iteration. A crash before its commit then asks the model again and runs what it asks for,
 * which changes nothing outside the run; the user still gets only the committed filler.
 */
import type { ReactSubAgent } from '../assistant/index.js';
import { earliest, isTransient, retryAfterOf } from '../resilience/index.js';
import type { AgentRunner, StepContext, StepResult } from '../runtime/index.js';
import { fitRecord } from './fitRecord.js';
import { Iteration } from './iteration.js';
import type { AgentStepResult } from './protocol.js';
import { type McpBaseAgent, McpOpenAgent, McpTaskAgent } from './reactAgent.js';
import { ReactRunData } from './runData.js';
import { type ReactRunnerOptions, StepState } from './stepState.js';

/** Runs ReAct agents (protocol `RASA`) one step per job. */
export class ReactRunner implements AgentRunner<ReactRunData> {
  readonly dataSchema = ReactRunData;
  private readonly agents = new Map<string, McpBaseAgent>();
  private readonly now: () => number;

  constructor(private readonly options: ReactRunnerOptions) {
    this.now = options.now ?? Date.now;
  }

  start(invocation: Parameters<AgentRunner['start']>[0]): ReactRunData {
    // The invocation's time: a retried step keeps the data it started with, so the run's
    // clock must be set here, not by its first step.
    const startedAt = invocation.input.timestamp
      ? Date.parse(invocation.input.timestamp)
      : Number.NaN;
    return {
      ...(Number.isFinite(startedAt) ? { startedAt } : {}),
      agentId: invocation.agent.name,
      input: invocation.input,
      inputReady: false,
      ...(invocation.exitIf ? { exitIf: [...invocation.exitIf] } : {}),
      resumed: invocation.resumed,
      restarted: invocation.restarted,
      modelCalls: 0,
      messages: [],
      events: [],
      results: [],
    };
  }

  async step(data: ReactRunData, context: StepContext): Promise<StepResult<ReactRunData>> {
    const config = this.options.assistant.agents[data.agentId];
    if (config?.protocol !== 'RASA') {
      return fatal(data, `no ReAct agent named ${data.agentId} is configured`);
    }
    const agent = this.agentFor(config, data.exitIf !== undefined);
    if (agent.kind === 'task' && !data.exitIf?.length) {
      return fatal(data, `${config.name} is a task-specific agent, but its step has no exit_if`);
    }
    const run: ReactRunData = { ...data, startedAt: data.startedAt ?? this.now() };
    const timeoutMs = config.configuration.timeout && config.configuration.timeout * 1000;
    if (timeoutMs !== undefined && this.now() - (run.startedAt ?? 0) >= timeoutMs) {
      return fatal(
        run,
        `${config.name} did not finish within its timeout of ${config.configuration.timeout} s`,
      );
    }
    if (!run.inputReady) {
      run.input = await agent.processInput(structuredClone(run.input));
      run.inputReady = true;
    }
    const deadline = earliest(
      context.deadline,
      timeoutMs === undefined ? undefined : (run.startedAt ?? 0) + timeoutMs,
    );
    const state = new StepState(
      this.options,
      config,
      agent,
      run,
      { ...context, ...(deadline !== undefined ? { deadline } : {}) },
      this.now,
    );
    const iteration = new Iteration(state);
    let result: AgentStepResult;
    try {
      result = await agent.sendMessage(run.input, iteration);
    } catch (error) {
      if (context.signal.aborted) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      if (!isTransient(error)) return fatal(run, reason);
      const retryAfterMs = retryAfterOf(error);
      return { data, next: { type: 'retry', reason, ...(retryAfterMs ? { retryAfterMs } : {}) } };
    }
    if (!iteration.ran && !result.output) {
      return fatal(run, `sendMessage of ${config.name} neither ran the step nor ended the run`);
    }
    let next: ReactRunData;
    try {
      next = fitRecord(state.data);
    } catch (error) {
      return fatal(run, error instanceof Error ? error.message : String(error));
    }
    const messages = [...result.messages];
    if (result.output)
      return { data: next, messages, next: { type: 'done', output: result.output } };
    return { data: next, messages, next: { type: 'continue' } };
  }

  private agentFor(config: ReactSubAgent, hasExitIf: boolean): McpBaseAgent {
    const key = `${config.name}:${hasExitIf ? 'task' : 'open'}`;
    let agent = this.agents.get(key);
    if (!agent) {
      const Custom = this.options.classes?.[config.name];
      agent = Custom
        ? new Custom(config)
        : hasExitIf
          ? new McpTaskAgent(config)
          : new McpOpenAgent(config);
      this.agents.set(key, agent);
    }
    return agent;
  }
}

function fatal(data: ReactRunData, reason: string): StepResult<ReactRunData> {
  return {
    data,
    next: {
      type: 'done',
      output: { id: data.input.id, status: 'fatal_error', errorMessage: reason },
    },
  };
}
