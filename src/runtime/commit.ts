/**
 * The commit protocol of a job: load the conversation's head, deliver an outbox a crash left
 * behind, skip a job that already ran, run the job, then commit the new head together with its
 * outbox (events, messages, follow-up jobs) on the condition that the version is still the one
 * loaded, and deliver that outbox. The head is the commit point: run records are written first
 * under per-attempt keys, so a losing concurrent attempt never overwrites the winner's.
 */
import { randomUUID } from 'node:crypto';
import type { ConversationState } from '../dialogue/index.js';
import { isTransient, retryAfterOf } from '../resilience/index.js';
import { type CallScope, type JobRun, runAgentStep } from './agentSteps.js';
import { deliverOutbox, followUpOf } from './delivery.js';
import { DurableAgentPort } from './durableAgents.js';
import { callDeadline } from './jobBudget.js';
import { type Job, RECENT_JOBS } from './jobs.js';
import type { Outbox } from './outbox.js';
import { type AgentRunRecord, type ConversationHead, isLostRace } from './ports.js';
import { MAX_RETRIES, retryDelay } from './retryPolicy.js';
import { loadRunState, parseRunnerData, RunRecordError } from './runRecords.js';
import type { RuntimeDeps } from './runtimeDeps.js';
import { runSetSlots } from './setSlots.js';
import type { StepReport } from './stepReport.js';

export type JobOutcome = 'done' | 'duplicate' | 'stale';

export interface JobOptions {
  /** When the job must be over (ms since the epoch); its calls end a little earlier. */
  readonly deadline?: number;
}

/** Runs one job under the commit protocol (see the module's header). */
export async function processJob(
  job: Job,
  deps: RuntimeDeps,
  signal: AbortSignal,
  options: JobOptions = {},
): Promise<JobOutcome> {
  const calls: CallScope = {
    signal,
    ...(options.deadline !== undefined
      ? { deadline: callDeadline(options.deadline, deps.ports.now()) }
      : {}),
  };
  // Outside the conversation's state: it only reaches out to what an agent left running.
  if (job.type === 'agent_cancel') return cancelAgentWork(job, deps, calls);
  if (job.type === 'channel_work') {
    await deps.output.work?.(job, signal);
    return 'done';
  }
  const head = await deps.store.load(job.conversation_id);
  // This job being the outbox's only follow-up shows the outbox was delivered (see delivery.ts).
  const followsUp = head?.outbox !== undefined && followUpOf(head.outbox) === job.id;
  if (head?.outbox && !followsUp) {
    await deliverOutbox(job.conversation_id, head.outbox, head.state, deps);
  }
  if (head?.recentJobs.includes(job.id)) return 'duplicate';

  const state = head?.state ?? deps.engine.start(job.conversation_id);
  const run = await runJob(job, state, head, deps, calls);
  if (!run) {
    // Not committing, so the outbox this job was to replace is cleared here.
    if (head?.outbox && followsUp) await deps.store.clearOutbox(job.conversation_id, head.version);
    return 'stale';
  }
  const { agents } = run;

  const version = (head?.version ?? 0) + 1;
  const nextSeq = head?.nextSeq ?? 0;
  // Each attempt writes its own record, so a losing concurrent attempt cannot overwrite the winner's.
  const attempt = randomUUID().slice(0, 8);
  const records = [...agents.records, ...run.records].map((r) => ({
    ...r,
    jobId: `${r.jobId}.${attempt}`,
  }));
  const runs = activeRuns(deps, run.result.state, { ...head?.runs }, records);
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
    settle_turns: await turnsOfDroppedRuns(job, head, runs, deps),
    jobs: [...agents.jobs, ...run.jobs, ...cancelJobs(job, state, run, head, deps)],
  };
  const newHead: ConversationHead = {
    version,
    state: run.result.state,
    outbox,
    recentJobs: [...(head?.recentJobs ?? []), job.id].slice(-RECENT_JOBS),
    nextSeq: nextSeq + outbox.events.length,
    runs,
    channel:
      job.type === 'user_message' || job.type === 'set_slots'
        ? job.channel
        : (head?.channel ?? run.channel),
  };
  await deps.store.commit({
    conversationId: job.conversation_id,
    expectedVersion: head?.version ?? 0,
    head: newHead,
    runs: records,
  });
  if (run.step) tellJournal(deps, run.step);
  await deliverOutbox(job.conversation_id, outbox, newHead.state, deps);
  return 'done';
}

/** Tells the journal of a committed step; a journal that fails never holds up the delivery. */
function tellJournal(deps: RuntimeDeps, step: StepReport): void {
  try {
    deps.journal?.(step);
  } catch (error) {
    deps.ports.warn?.('the step journal failed', {
      runId: step.runId,
      reason: error instanceof Error ? error.message : String(error),
    });
  }
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
  options: JobOptions = {},
  attempts = 3,
): Promise<JobOutcome> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await processJob(job, deps, signal, options);
    } catch (error) {
      if (!isLostRace(error) || attempt >= attempts) throw error;
    }
  }
}

async function runJob(
  job: Job,
  state: ConversationState,
  head: ConversationHead | undefined,
  deps: RuntimeDeps,
  calls: CallScope,
): Promise<JobRun | undefined> {
  switch (job.type) {
    case 'user_message':
      return runUserMessage(job, state, deps, calls);
    case 'agent_step':
    case 'agent_update':
      return runAgentStep(job, state, head, deps, calls);
    case 'set_slots':
      return runSetSlots(job, state, deps);
    case 'agent_cancel':
    case 'channel_work':
      return undefined;
    default:
      return assertNever(job);
  }
}

/**
 * A user message's turn. When the command generator's model, or an MCP server a flow calls, fails
 * in a way worth another try, nothing of the turn is kept and the message comes back as a delayed
 * job under the retry policy; the last try answers the failure with the internal-error pattern.
 * The turn's webhook keeps waiting meanwhile (the turn is not settled). Tool calls of a try carry
 * the same idempotency keys on the next, so a server can drop what it already did.
 */
async function runUserMessage(
  job: Extract<Job, { type: 'user_message' }>,
  state: ConversationState,
  deps: RuntimeDeps,
  calls: CallScope,
): Promise<JobRun> {
  const agents = new DurableAgentPort(deps.runners, job, job.channel);
  const attempt = job.attempt ?? 0;
  try {
    const result = await deps.engine.handleMessage(
      state,
      {
        text: job.text,
        ...(job.metadata ? { metadata: job.metadata } : {}),
        ...(job.commands ? { commands: job.commands } : {}),
        ...(job.typed ? { typed: true } : {}),
      },
      { ...deps.ports, agents },
      {
        channel: job.channel,
        ...calls,
        retryUnavailable: attempt < MAX_RETRIES,
        callKey: job.turn_id,
      },
    );
    return { channel: job.channel, agents, result, records: [], jobs: [] };
  } catch (error) {
    const delayMs = isTransient(error)
      ? retryDelay(attempt + 1, deps.ports.random, retryAfterOf(error))
      : undefined;
    if (delayMs === undefined || calls.signal.aborted) throw error;
    const retry: Job = {
      ...job,
      id: `${job.turn_id}~retry${attempt + 1}`,
      attempt: attempt + 1,
      not_before: deps.ports.now() + delayMs,
    };
    const nothing = { state, events: [], messages: [], commands: [] };
    // Agent runs the abandoned try started are abandoned with it.
    const none = new DurableAgentPort(deps.runners, job, job.channel);
    return { channel: job.channel, agents: none, result: nothing, records: [], jobs: [retry] };
  }
}

/**
 * The turns of runs that ended in this job without being this job's own (a cancelled flow took
 * them along): their waiting webhooks must hear that they are over. Reads the dropped runs'
 * records, which happens only when runs are cancelled; an unreadable record has no turn to end.
 */
async function turnsOfDroppedRuns(
  job: Job,
  head: ConversationHead | undefined,
  runs: Readonly<Record<string, string>>,
  deps: RuntimeDeps,
): Promise<string[]> {
  const own = 'run_id' in job ? job.run_id : undefined;
  const turns = new Set<string>();
  for (const [runId, pointer] of Object.entries(head?.runs ?? {})) {
    if (runId in runs || runId === own) continue;
    try {
      const turn = (await loadRunState(deps.store, job.conversation_id, runId, pointer))?.turnId;
      if (turn && turn !== job.turn_id) turns.add(turn);
    } catch (error) {
      if (!(error instanceof RunRecordError)) throw error;
    }
  }
  return [...turns];
}

/**
 * Jobs that cancel what the agents this job cancelled left running elsewhere: a working run's
 * remote task, or the task a waiting agent kept. Only agents whose runner can cancel get one; a
 * run that ended in this job by itself is not cancelled again.
 */
function cancelJobs(
  job: Job,
  before: ConversationState,
  run: JobRun,
  head: ConversationHead | undefined,
  deps: RuntimeDeps,
): Job[] {
  const own = job.type === 'agent_step' || job.type === 'agent_update' ? job.run_id : undefined;
  const frames = deps.engine.cancelledAgents(before, run.result.state, run.result.events);
  return frames.flatMap((frame) => {
    const agent = deps.engine.model.assistant.agents[frame.agent_id];
    if (!agent || !deps.runners.runnerFor(agent)?.cancel) return [];
    if (frame.run_id !== undefined && frame.run_id === own) return [];
    const record = frame.run_id !== undefined ? head?.runs[frame.run_id] : undefined;
    if (!record && !frame.session) return [];
    return [
      {
        type: 'agent_cancel',
        id: `${job.id}#cancel-${frame.frame_id}`,
        conversation_id: job.conversation_id,
        turn_id: job.turn_id,
        agent_id: frame.agent_id,
        ...(record && frame.run_id ? { run_id: frame.run_id, record } : {}),
        ...(frame.session ? { session: { ...frame.session } } : {}),
      },
    ];
  });
}

/** Cancels a cancelled agent's remote work through its runner, best effort. */
async function cancelAgentWork(
  job: Extract<Job, { type: 'agent_cancel' }>,
  deps: RuntimeDeps,
  calls: CallScope,
): Promise<JobOutcome> {
  const agent = deps.engine.model.assistant.agents[job.agent_id];
  const runner = agent && deps.runners.runnerFor(agent);
  if (!agent || !runner?.cancel) return 'stale';
  let data: unknown;
  if (job.run_id && job.record) {
    try {
      const run = await loadRunState(deps.store, job.conversation_id, job.run_id, job.record);
      data = run ? parseRunnerData(job.run_id, runner, run.runner) : undefined;
    } catch (error) {
      if (!(error instanceof RunRecordError)) throw error;
    }
  }
  await runner.cancel(
    {
      agent,
      conversationId: job.conversation_id,
      ...(data !== undefined ? { data } : {}),
      ...(job.session ? { session: job.session } : {}),
    },
    calls,
  );
  return 'done';
}

/** Run pointers of the runs the conversation still waits for; cancelled or finished ones go. */
function activeRuns(
  deps: RuntimeDeps,
  state: ConversationState,
  previous: Record<string, string>,
  written: readonly AgentRunRecord[],
): Record<string, string> {
  const pointers = { ...previous };
  for (const record of written) pointers[record.runId] = record.jobId;
  const active = deps.engine.activeRunIds(state);
  return Object.fromEntries(Object.entries(pointers).filter(([runId]) => active.has(runId)));
}

function assertNever(value: never): never {
  throw new Error(`unknown job ${JSON.stringify(value)}`);
}
