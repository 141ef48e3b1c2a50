import { randomUUID } from 'node:crypto';
import type { AgentOutput } from '../assistant/index.js';
import type {
  ConversationState,
  DialogueEngine,
  DialoguePorts,
  TurnResult,
} from '../dialogue/index.js';
import type { AgentRunners } from './agentRunner.js';
import { DurableAgentPort, type RunData, stepJob } from './durableAgents.js';
import type { Job } from './jobs.js';
import type { Outbox } from './outbox.js';
import {
  type AgentRunRecord,
  ConcurrentUpdateError,
  type ConversationHead,
  type ConversationStore,
  type JobQueue,
  type OutputChannel,
} from './ports.js';

/** How many job ids a head remembers to recognise a job delivered again. */
export const RECENT_JOBS = 50;
/** Failed agent steps retried before the run fails, with backoff 1 s, 2 s, 4 s. */
export const STEP_RETRIES = 3;

/** Everything a job needs: the engine and the adapters wired by the entry point. */
export interface RuntimeDeps {
  readonly engine: DialogueEngine;
  readonly store: ConversationStore;
  readonly queue: JobQueue;
  readonly output: OutputChannel;
  readonly runners: AgentRunners;
  /** The dialogue's ports other than agents (the processor provides the durable agent port). */
  readonly ports: Omit<DialoguePorts, 'agents'>;
}

export type JobOutcome = 'done' | 'duplicate' | 'stale';

/**
 * Runs one job: load the conversation, run the step, commit state and outbox together
 * (conditionally on the loaded version), then deliver the outbox. A job that already ran is
 * not run again; an outbox a crash left behind is delivered first.
 */
export async function processJob(
  job: Job,
  deps: RuntimeDeps,
  signal: AbortSignal,
): Promise<JobOutcome> {
  const head = await deps.store.load(job.conversation_id);
  if (head?.outbox) await deliverOutbox(job.conversation_id, head.outbox, deps);
  if (head?.recentJobs.includes(job.id)) return 'duplicate';

  const state = head?.state ?? deps.engine.start(job.conversation_id);
  const run = await runJob(job, state, head, deps, signal);
  if (!run) return 'stale';
  const { agents } = run;

  const version = (head?.version ?? 0) + 1;
  const nextSeq = head?.nextSeq ?? 0;
  // Each attempt writes its own record, so a losing concurrent attempt cannot overwrite the winner's.
  const attempt = randomUUID().slice(0, 8);
  const records = [...agents.records, ...run.records].map((r) => ({
    ...r,
    jobId: `${r.jobId}.${attempt}`,
  }));
  const runs = activeRuns(run.result.state, { ...head?.runs }, records);
  const settleTurns = await turnsOfCancelledRuns(job, head, runs, deps);
  const outbox: Outbox = {
    job_id: job.id,
    turn_id: job.turn_id,
    channel: run.channel,
    version,
    events: run.result.events.map((event, i) => ({ seq: nextSeq + i, event })),
    messages: run.result.messages.map((message, i) => ({
      id: `${job.id}#${i}`,
      recipient_id: job.conversation_id,
      message,
    })),
    // The turn is over once this job queued no more work for it.
    settled: agents.jobs.length === 0 && run.jobs.length === 0,
    settle_turns: settleTurns,
    jobs: [...agents.jobs, ...run.jobs],
  };
  const newHead: ConversationHead = {
    version,
    state: run.result.state,
    outbox,
    recentJobs: [...(head?.recentJobs ?? []), job.id].slice(-RECENT_JOBS),
    nextSeq: nextSeq + outbox.events.length,
    runs,
  };
  await deps.store.commit({
    conversationId: job.conversation_id,
    expectedVersion: head?.version ?? 0,
    head: newHead,
    runs: records,
  });
  await deliverOutbox(job.conversation_id, outbox, deps);
  return 'done';
}

/**
 * Runs a job, running it again at once (up to `attempts` times) when another job of the same
 * conversation committed first: on AWS a failed FIFO message would otherwise wait out its
 * visibility timeout.
 */
export async function processJobRetryingRaces(
  job: Job,
  deps: RuntimeDeps,
  signal: AbortSignal,
  attempts = 3,
): Promise<JobOutcome> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await processJob(job, deps, signal);
    } catch (error) {
      if (!(error instanceof ConcurrentUpdateError) || attempt >= attempts) throw error;
    }
  }
}

interface JobRun {
  readonly channel: string;
  /** The durable agent port the engine used: runs it started and their first step jobs. */
  readonly agents: DurableAgentPort;
  readonly result: TurnResult;
  readonly records: AgentRunRecord[];
  readonly jobs: Job[];
}

async function runJob(
  job: Job,
  state: ConversationState,
  head: ConversationHead | undefined,
  deps: RuntimeDeps,
  signal: AbortSignal,
): Promise<JobRun | undefined> {
  switch (job.type) {
    case 'user_message': {
      const agents = new DurableAgentPort(deps.runners, job, job.channel);
      const result = await deps.engine.handleMessage(
        state,
        { text: job.text, ...(job.metadata ? { metadata: job.metadata } : {}) },
        { ...deps.ports, agents },
        { channel: job.channel, signal },
      );
      return { channel: job.channel, agents, result, records: [], jobs: [] };
    }
    case 'agent_step':
    case 'agent_update':
      return runAgentStep(job, state, head, deps, signal);
    default:
      return assertNever(job);
  }
}

/**
 * One step of an agent's run, then the engine applies what it reported. A step for a run the
 * conversation no longer waits for, or out of sequence (a late duplicate), does not run at all;
 * a run that cannot go on (its record or runner is gone) ends with a fatal error.
 */
async function runAgentStep(
  job: Extract<Job, { type: 'agent_step' | 'agent_update' }>,
  state: ConversationState,
  head: ConversationHead | undefined,
  deps: RuntimeDeps,
  signal: AbortSignal,
): Promise<JobRun | undefined> {
  const frame = state.stack.find((f) => f.type === 'agent' && f.run_id === job.run_id);
  if (frame?.type !== 'agent' || frame.status !== 'working') return undefined;
  const pointer = head?.runs[job.run_id];
  const record = pointer
    ? await deps.store.loadRun(job.conversation_id, job.run_id, pointer)
    : undefined;
  const data = record?.data as RunData | undefined;
  if (data && job.type === 'agent_step' && job.step !== data.steps) return undefined;
  const agent = deps.engine.model.assistant.agents[frame.agent_id];
  const runner = agent && deps.runners.runnerFor(agent);
  const channel = data?.channel ?? 'rest';
  const agents = new DurableAgentPort(deps.runners, job, channel);
  const ports: DialoguePorts = { ...deps.ports, agents };
  const apply = (update: { messages?: TurnResult['messages']; output?: AgentOutput }) =>
    deps.engine.handleAgentUpdate(
      state,
      { frameId: frame.frame_id, runId: job.run_id, ...update },
      ports,
      { signal },
    );

  if (!data || !runner) {
    const reason = !data ? 'its stored state is gone' : `no runner for agent ${frame.agent_id}`;
    const output: AgentOutput = {
      id: job.run_id,
      status: 'fatal_error',
      errorMessage: `the agent's run cannot go on: ${reason}`,
    };
    return { channel, agents, result: await apply({ output }), records: [], jobs: [] };
  }

  const next = await stepOnce(runner, data, job, signal);
  const result = await apply({
    messages: next.messages.map(clipMessage),
    ...(next.output ? { output: clipOutput(next.output) } : {}),
  });
  if (next.output) return { channel, agents, result, records: [], jobs: [] };
  const notBefore = next.delayMs !== undefined ? deps.ports.now() + next.delayMs : undefined;
  const { notBefore: _previous, ...rest } = next.data;
  const data2: RunData = notBefore === undefined ? rest : { ...rest, notBefore };
  return {
    channel,
    agents,
    result,
    records: [{ runId: job.run_id, jobId: job.id, agentId: frame.agent_id, data: data2 }],
    // A pushed update also moves the run on: the step queued before it becomes stale.
    jobs: [stepJob(job, job.run_id, data.frameId, next.data.steps, notBefore)],
  };
}

/** Longest text of an agent's message kept: one job's outbox must stay far below an item's 400 KB. */
export const MAX_AGENT_TEXT = 8000;

function clipText(text: string): string {
  return text.length > MAX_AGENT_TEXT ? `${text.slice(0, MAX_AGENT_TEXT)}…` : text;
}

function clipMessage(message: TurnResult['messages'][number]): TurnResult['messages'][number] {
  return message.text === undefined ? message : { ...message, text: clipText(message.text) };
}

function clipOutput(output: AgentOutput): AgentOutput {
  return output.responseMessage === undefined
    ? output
    : { ...output, responseMessage: clipText(output.responseMessage) };
}

interface StepOutcome {
  readonly data: RunData;
  readonly messages: TurnResult['messages'];
  readonly output?: AgentOutput;
  readonly delayMs?: number;
}

/** Runs one step; a failing step is retried after 1, 2 and 4 s, then the run fails. */
async function stepOnce(
  runner: NonNullable<ReturnType<AgentRunners['runnerFor']>>,
  data: RunData,
  job: Extract<Job, { type: 'agent_step' | 'agent_update' }>,
  signal: AbortSignal,
): Promise<StepOutcome> {
  // A retried step gets the update its failed attempt could not apply.
  const update = job.type === 'agent_update' ? job.update : data.pendingUpdate;
  try {
    const step = await runner.step(data.runner, {
      conversationId: job.conversation_id,
      runId: job.run_id,
      signal,
      ...(update !== undefined ? { update } : {}),
    });
    const { pendingUpdate: _applied, ...rest } = data;
    return {
      data: { ...rest, runner: step.data, failures: 0, steps: data.steps + 1 },
      messages: step.messages ?? [],
      ...(step.next.type === 'done' ? { output: step.next.output } : {}),
      ...(step.next.type === 'continue' && step.next.delayMs ? { delayMs: step.next.delayMs } : {}),
    };
  } catch (error) {
    if (signal.aborted) throw error;
    const failures = data.failures + 1;
    const failed = {
      ...data,
      failures,
      steps: data.steps + 1,
      ...(update !== undefined ? { pendingUpdate: update } : {}),
    };
    if (failures <= STEP_RETRIES)
      return { data: failed, messages: [], delayMs: 1000 * 2 ** (failures - 1) };
    return {
      data: failed,
      messages: [],
      output: {
        id: job.run_id,
        status: 'fatal_error',
        errorMessage: error instanceof Error ? error.message : String(error),
      },
    };
  }
}

/**
 * Delivers a committed outbox: events to the log, messages to the channel, follow-up jobs to
 * the queue; then forgets it. Each part is idempotent, so delivering twice is harmless.
 */
export async function deliverOutbox(
  conversationId: string,
  outbox: Outbox,
  deps: RuntimeDeps,
): Promise<void> {
  await deps.store.appendEvents(conversationId, outbox.version, outbox.events);
  await deps.output.deliver({
    conversationId,
    turnId: outbox.turn_id,
    jobId: outbox.job_id,
    version: outbox.version,
    channel: outbox.channel,
    messages: outbox.messages,
    settled: outbox.settled,
  });
  for (const turnId of outbox.settle_turns) {
    await deps.output.deliver({
      conversationId,
      turnId,
      jobId: outbox.job_id,
      version: outbox.version,
      channel: outbox.channel,
      messages: [],
      settled: true,
    });
  }
  if (outbox.jobs.length > 0) await deps.queue.enqueue(outbox.jobs);
  await deps.store.clearOutbox(conversationId, outbox.version);
}

/**
 * The turns of runs that ended in this job without being this job's own (a cancelled flow took
 * them along): their waiting webhooks must hear that they are over. Reads the dropped runs'
 * records, which happens only when runs are cancelled.
 */
async function turnsOfCancelledRuns(
  job: Job,
  head: ConversationHead | undefined,
  runs: Readonly<Record<string, string>>,
  deps: RuntimeDeps,
): Promise<string[]> {
  const own = job.type === 'user_message' ? undefined : job.run_id;
  const turns = new Set<string>();
  for (const [runId, pointer] of Object.entries(head?.runs ?? {})) {
    if (runId in runs || runId === own) continue;
    const record = await deps.store.loadRun(job.conversation_id, runId, pointer);
    const turn = (record?.data as RunData | undefined)?.turnId;
    if (turn && turn !== job.turn_id) turns.add(turn);
  }
  return [...turns];
}

/** Run pointers of the runs the conversation still waits for; cancelled or finished ones go. */
function activeRuns(
  state: ConversationState,
  previous: Record<string, string>,
  written: readonly AgentRunRecord[],
): Record<string, string> {
  const pointers = { ...previous };
  for (const record of written) pointers[record.runId] = record.jobId;
  const working = new Set(
    state.stack.flatMap((f) =>
      f.type === 'agent' && f.status === 'working' && f.run_id ? [f.run_id] : [],
    ),
  );
  return Object.fromEntries(Object.entries(pointers).filter(([runId]) => working.has(runId)));
}

function assertNever(value: never): never {
  throw new Error(`unknown job ${JSON.stringify(value)}`);
}
