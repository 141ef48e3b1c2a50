/**
 * Agent steps: one step of a durable agent run per job (a ReAct iteration, an A2A exchange or
 * poll, a pushed update), then the engine applies what the step reported. Owns the step's
 * sequencing (late or duplicate steps do not run), the retry policy's application, and the
 * clipping of agent texts so that one job's outbox stays far below a store item's size.
 */
import type { AgentOutput } from '../assistant/index.js';
import type { BotMessage, ConversationState, TurnResult } from '../dialogue/index.js';
import type { AgentRunner } from './agentRunner.js';
import { DurableAgentPort, stepJob } from './durableAgents.js';
import type { Job } from './jobs.js';
import type { AgentRunRecord, ConversationHead } from './ports.js';
import { retryDelay } from './retryPolicy.js';
import {
  loadRunState,
  parseRunnerData,
  RUN_RECORD_VERSION,
  RunRecordError,
  type RunState,
} from './runRecords.js';
import type { RuntimeDeps } from './runtimeDeps.js';
import type { StepReport } from './stepReport.js';

/** Longest text of an agent's message kept: one job's outbox must stay far below an item's 400 KB. */
export const MAX_AGENT_TEXT = 8000;

export type StepJob = Extract<Job, { type: 'agent_step' | 'agent_update' }>;

/** What a job's calls run under: the job's signal, and when they must be over. */
export interface CallScope {
  readonly signal: AbortSignal;
  readonly deadline?: number;
}

/** What a job ran: the engine's result and what the commit must write and queue with it. */
export interface JobRun {
  readonly channel: string;
  /** The durable agent port the engine used: runs it started and their first step jobs. */
  readonly agents: DurableAgentPort;
  readonly result: TurnResult;
  readonly records: AgentRunRecord[];
  readonly jobs: Job[];
  /** The agent step the job ran, for the step journal. */
  readonly step?: StepReport;
}

/**
 * Runs one step of an agent's run, then lets the engine apply it. A step for a run the
 * conversation no longer waits for, or out of sequence (a late duplicate), does not run at all
 * (undefined); a run that cannot go on (its record is gone or unreadable, its runner missing)
 * ends with a fatal error, which the flow answers with the internal-error pattern.
 */
export async function runAgentStep(
  job: StepJob,
  state: ConversationState,
  head: ConversationHead | undefined,
  deps: RuntimeDeps,
  calls: CallScope,
): Promise<JobRun | undefined> {
  const waiter = deps.engine.runWaiter(state, job.run_id);
  if (!waiter || !head) return undefined;
  const pointer = head.runs[job.run_id];
  let run: RunState | undefined;
  let unreadable: string | undefined;
  try {
    run = pointer
      ? await loadRunState(deps.store, job.conversation_id, job.run_id, pointer)
      : undefined;
  } catch (error) {
    if (!(error instanceof RunRecordError)) throw error;
    unreadable = error.message;
  }
  if (run && job.type === 'agent_step' && job.step !== run.steps) return undefined;

  const channel = run?.channel ?? head.channel;
  const agents = new DurableAgentPort(deps.runners, job, channel);
  const apply = async (update: { messages?: readonly BotMessage[]; output?: AgentOutput }) =>
    deps.engine.handleAgentUpdate(
      state,
      { frameId: waiter.frameId, runId: job.run_id, ...update },
      { ...deps.ports, agents },
      { channel, ...calls, callKey: job.id },
    );
  const fail = async (reason: string): Promise<JobRun> => {
    const output: AgentOutput = {
      id: job.run_id,
      status: 'fatal_error',
      errorMessage: `the agent's run cannot go on: ${reason}`,
    };
    return { channel, agents, result: await apply({ output }), records: [], jobs: [] };
  };

  if (unreadable !== undefined) return fail(unreadable);
  if (!run) return fail('its stored state is gone');
  const agent = deps.engine.model.assistant.agents[waiter.agentId];
  const runner = agent && deps.runners.runnerFor(agent);
  if (!runner) return fail(`no runner for agent ${waiter.agentId}`);
  let runnerData: unknown;
  try {
    runnerData = parseRunnerData(job.run_id, runner, run.runner);
  } catch (error) {
    if (!(error instanceof RunRecordError)) throw error;
    return fail(error.message);
  }

  const output = deps.output;
  const preview =
    output.preview && deps.streams?.(channel)
      ? (delta: string) => {
          output
            .preview?.({
              conversationId: job.conversation_id,
              turnId: run.turnId,
              channel,
              runId: job.run_id,
              stepId: job.id,
              delta,
            })
            .catch(() => undefined);
        }
      : undefined;
  const startedAt = deps.ports.now();
  const next = await stepOnce(runner, run, runnerData, job, deps.ports.random, {
    ...calls,
    ...(preview ? { preview } : {}),
    ...(deps.ports.warn ? { warn: deps.ports.warn } : {}),
  });
  const report: StepReport = {
    conversationId: job.conversation_id,
    runId: job.run_id,
    agentId: waiter.agentId,
    jobId: job.id,
    step: run.steps,
    startedAt,
    durationMs: Math.max(0, deps.ports.now() - startedAt),
    ...next.report,
    before: runnerData,
    runner: next.run.runner,
  };
  // One filler a run: a model that goes round its tools again and again says it once.
  const messages = run.saidFiller ? next.messages.filter((m) => !isFiller(m)) : next.messages;
  const result = await apply({
    messages: messages.map(clipMessage),
    ...(next.output ? { output: clipOutput(next.output) } : {}),
  });
  if (next.output) return { channel, agents, result, records: [], jobs: [], step: report };
  const notBefore = next.delayMs !== undefined ? deps.ports.now() + next.delayMs : undefined;
  const { notBefore: _previous, ...rest } = next.run;
  const said = run.saidFiller || messages.some(isFiller) ? { saidFiller: true } : {};
  const stored: RunState = { ...rest, ...said, ...(notBefore === undefined ? {} : { notBefore }) };
  return {
    channel,
    agents,
    result,
    records: [{ runId: job.run_id, jobId: job.id, agentId: waiter.agentId, data: stored }],
    // A pushed update also moves the run on: the step queued before it becomes stale.
    jobs: [stepJob(job, job.run_id, run.frameId, next.run.steps, notBefore)],
    step: report,
  };
}

interface StepOutcome {
  readonly run: RunState;
  readonly messages: readonly BotMessage[];
  readonly output?: AgentOutput;
  readonly delayMs?: number;
  /** How the step ended, as its report tells it. */
  readonly report: Pick<StepReport, 'outcome' | 'reason' | 'retryInMs' | 'output'>;
}

/**
 * Runs one step. A step that throws, answers `retry` or reports a `recoverable_error` runs again
 * as a delayed job under the retry policy (the same data, and a pushed update again), until the
 * policy gives up: then the run fails.
 */
async function stepOnce(
  runner: AgentRunner,
  run: RunState,
  runnerData: unknown,
  job: StepJob,
  random: () => number,
  calls: CallScope & {
    readonly preview?: (delta: string) => void;
    readonly warn?: (message: string, fields: Readonly<Record<string, unknown>>) => void;
  },
): Promise<StepOutcome> {
  const { signal } = calls;
  // A retried step gets the update its failed attempt could not apply.
  const update = job.type === 'agent_update' ? job.update : run.pendingUpdate;
  let failure: { reason: string; retryAfterMs?: number; messages: readonly BotMessage[] };
  try {
    const step = await runner.step(runnerData, {
      conversationId: job.conversation_id,
      runId: job.run_id,
      signal,
      ...(calls.deadline !== undefined ? { deadline: calls.deadline } : {}),
      ...(update !== undefined ? { update } : {}),
      ...(calls.preview ? { preview: calls.preview } : {}),
    });
    const messages = step.messages ?? [];
    const next = step.next;
    if (next.type === 'retry') {
      failure = { reason: next.reason, messages, ...retryAfter(next.retryAfterMs) };
    } else if (next.type === 'done' && next.output.status === 'recoverable_error') {
      failure = {
        reason: next.output.errorMessage ?? 'the agent reported a recoverable error',
        messages,
      };
    } else {
      const { pendingUpdate: _applied, ...rest } = run;
      const advanced: RunState = {
        ...rest,
        version: RUN_RECORD_VERSION,
        runner: step.data,
        failures: 0,
        steps: run.steps + 1,
      };
      if (next.type === 'done') {
        const output = next.output;
        return { run: advanced, messages, output, report: { outcome: 'done', output } };
      }
      return {
        run: advanced,
        messages,
        ...(next.delayMs ? { delayMs: next.delayMs } : {}),
        report: { outcome: 'continued' },
      };
    }
  } catch (error) {
    if (signal.aborted) throw error;
    failure = { reason: error instanceof Error ? error.message : String(error), messages: [] };
  }

  const failures = run.failures + 1;
  const failed: RunState = {
    ...run,
    failures,
    steps: run.steps + 1,
    ...(update !== undefined ? { pendingUpdate: update } : {}),
  };
  const delayMs = retryDelay(failures, random, failure.retryAfterMs);
  // Said where the operator looks (the local stack's terminal, the function's logs): the user
  // only hears that something went wrong.
  const fields = { conversationId: job.conversation_id, runId: job.run_id, attempt: failures };
  if (delayMs !== undefined) {
    calls.warn?.(
      `an agent's step failed; it runs again in ${delayMs} ms: ${failure.reason}`,
      fields,
    );
    return {
      run: failed,
      messages: failure.messages,
      delayMs,
      report: { outcome: 'retrying', reason: failure.reason, retryInMs: delayMs },
    };
  }
  calls.warn?.(`an agent's run failed after ${failures} attempts: ${failure.reason}`, fields);
  const output: AgentOutput = {
    id: job.run_id,
    status: 'fatal_error',
    errorMessage: failure.reason,
  };
  return {
    run: failed,
    messages: failure.messages,
    output,
    report: { outcome: 'failed', reason: failure.reason, output },
  };
}

function retryAfter(ms: number | undefined): { retryAfterMs?: number } {
  return ms !== undefined && Number.isFinite(ms) && ms > 0 ? { retryAfterMs: ms } : {};
}

/** A message an agent sends while it works, before its tools run. */
function isFiller(message: BotMessage): boolean {
  return message.metadata?.filler === true;
}

function clipText(text: string): string {
  return text.length > MAX_AGENT_TEXT ? `${text.slice(0, MAX_AGENT_TEXT)}…` : text;
}

function clipMessage(message: BotMessage): BotMessage {
  return message.text === undefined ? message : { ...message, text: clipText(message.text) };
}

function clipOutput(output: AgentOutput): AgentOutput {
  return output.responseMessage === undefined
    ? output
    : { ...output, responseMessage: clipText(output.responseMessage) };
}
