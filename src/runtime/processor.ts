import type { AgentOutput } from '../agents/index.js';
import {
  type ConversationState,
  type DialogueEngine,
  type DialoguePorts,
  isWaitingForAgent,
  type TurnResult,
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
  const channel = job.type === 'user_message' ? job.channel : undefined;
  const run = await runJob(job, state, head, deps, signal, channel);
  if (!run) return 'stale';
  const { agents } = run;

  const version = (head?.version ?? 0) + 1;
  const nextSeq = head?.nextSeq ?? 0;
  const runs = { ...head?.runs };
  for (const record of [...agents.records, ...run.records]) runs[record.runId] = record.jobId;
  for (const finished of run.finishedRuns) delete runs[finished];
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
    settled: !isWaitingForAgent(run.result.state.stack),
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
    runs: [...agents.records, ...run.records],
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
  readonly finishedRuns: string[];
}

async function runJob(
  job: Job,
  state: ConversationState,
  head: ConversationHead | undefined,
  deps: RuntimeDeps,
  signal: AbortSignal,
  channel: string | undefined,
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
      return { channel: job.channel, agents, result, records: [], jobs: [], finishedRuns: [] };
    }
    case 'agent_step':
    case 'agent_update':
      return runAgentStep(job, state, head, deps, signal, channel);
    default:
      return assertNever(job);
  }
}

/** One step of an agent's run, then the engine applies what it reported. */
async function runAgentStep(
  job: Extract<Job, { type: 'agent_step' | 'agent_update' }>,
  state: ConversationState,
  head: ConversationHead | undefined,
  deps: RuntimeDeps,
  signal: AbortSignal,
  _channel: string | undefined,
): Promise<JobRun | undefined> {
  const pointer = head?.runs[job.run_id];
  const record = pointer
    ? await deps.store.loadRun(job.conversation_id, job.run_id, pointer)
    : undefined;
  const agent = record && deps.engine.model.assistant.agents[record.agentId];
  const runner = agent && deps.runners.runnerFor(agent);
  if (!record || !runner) return undefined;
  const data = record.data as RunData;
  const agents = new DurableAgentPort(deps.runners, job, data.channel);
  const ports: DialoguePorts = { ...deps.ports, agents };
  const base = { channel: data.channel, agents };

  let next: {
    data: RunData;
    output?: AgentOutput;
    messages: TurnResult['messages'];
    delayMs?: number;
  };
  try {
    const step = await runner.step(data.runner, {
      conversationId: job.conversation_id,
      runId: job.run_id,
      signal,
      ...(job.type === 'agent_update' ? { update: job.update } : {}),
    });
    next = {
      data: { ...data, runner: step.data, failures: 0, steps: data.steps + 1 },
      messages: step.messages ?? [],
      ...(step.next.type === 'done' ? { output: step.next.output } : {}),
      ...(step.next.type === 'continue' && step.next.delayMs ? { delayMs: step.next.delayMs } : {}),
    };
  } catch (error) {
    if (signal.aborted) throw error;
    const failures = data.failures + 1;
    next =
      failures > STEP_RETRIES
        ? {
            data: { ...data, failures, steps: data.steps + 1 },
            messages: [],
            output: {
              id: job.run_id,
              status: 'fatal_error',
              errorMessage: error instanceof Error ? error.message : String(error),
            },
          }
        : {
            data: { ...data, failures, steps: data.steps + 1 },
            messages: [],
            delayMs: 1000 * 2 ** (failures - 1),
          };
  }

  const result = await deps.engine.handleAgentUpdate(
    state,
    {
      frameId: data.frameId,
      runId: job.run_id,
      messages: next.messages,
      ...(next.output ? { output: next.output } : {}),
    },
    ports,
    { signal },
  );
  if (result.stale || next.output)
    return { ...base, result, records: [], jobs: [], finishedRuns: [job.run_id] };
  const notBefore = next.delayMs !== undefined ? deps.ports.now() + next.delayMs : undefined;
  return {
    ...base,
    result,
    records: [{ runId: job.run_id, jobId: job.id, agentId: record.agentId, data: next.data }],
    jobs: [stepJob(job, job.run_id, data.frameId, next.data.steps, notBefore)],
    finishedRuns: [],
  };
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
  if (outbox.jobs.length > 0) await deps.queue.enqueue(outbox.jobs);
  await deps.store.clearOutbox(conversationId, outbox.version);
}

function assertNever(value: never): never {
  throw new Error(`unknown job ${JSON.stringify(value)}`);
}
