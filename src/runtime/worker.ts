import { describeError, type Logger, sleep } from '../resilience/index.js';
import { JOB_BUDGET_MS, jobScope } from './jobBudget.js';
import type { Job } from './jobs.js';

/** A job taken from a queue, with the handle to settle it. */
export interface ReceivedJob {
  readonly job: Job;
  readonly handle: string;
  readonly receiveCount: number;
}

/** Where a worker loop takes jobs from. */
export interface JobSource {
  receive(max: number, signal: AbortSignal): Promise<readonly ReceivedJob[]>;
  /** The job is done: remove it. */
  complete(handle: string): Promise<void>;
  /** Run it again soon (another job committed first). */
  retry(handle: string): Promise<void>;
}

export interface WorkerLoopOptions {
  readonly source: JobSource;
  /** Runs a job with its own signal, which aborts at `deadline` (ms since the epoch) or on a stop. */
  readonly process: (job: Job, signal: AbortSignal, deadline: number) => Promise<unknown>;
  /** Decides whether a failure is worth an immediate retry (a lost optimistic-concurrency race). */
  readonly isRetryable: (error: unknown) => boolean;
  readonly logger: Logger;
  /** Messages taken per receive (1–10). */
  readonly batch?: number;
  /** Stops taking jobs; jobs already taken run to their end. */
  readonly signal: AbortSignal;
  /** Aborts jobs in progress (a hard stop); by default only their budget does. */
  readonly jobSignal?: AbortSignal;
  /** Each job's budget (default `JOB_BUDGET_MS`). */
  readonly jobBudgetMs?: number;
}

/**
 * Takes jobs until the signal aborts and runs each: completed jobs are removed; a lost race is
 * released for an immediate retry; any other failure stays on the queue, which delivers it again
 * after its visibility timeout and moves it to the dead-letter queue after too many attempts.
 * Jobs of one conversation never run at the same time: the FIFO queue hands out one per group.
 */
export async function runWorkerLoop(options: WorkerLoopOptions): Promise<void> {
  const { source, logger, signal } = options;
  while (!signal.aborted) {
    let received: readonly ReceivedJob[];
    try {
      received = await source.receive(options.batch ?? 10, signal);
    } catch (error) {
      if (signal.aborted) return;
      logger.error('receiving jobs failed', { error: describeError(error) });
      await sleep(1000, signal).catch(() => undefined);
      continue;
    }
    await Promise.all(byConversation(received).map((jobs) => runInOrder(jobs, options)));
  }
}

/**
 * Jobs grouped by conversation, in the order received: a queue may hand out several jobs of one
 * conversation at once, and they must still run one after another.
 */
function byConversation(received: readonly ReceivedJob[]): ReceivedJob[][] {
  const groups = new Map<string, ReceivedJob[]>();
  for (const item of received) {
    const group = groups.get(item.job.conversation_id);
    if (group) group.push(item);
    else groups.set(item.job.conversation_id, [item]);
  }
  return [...groups.values()];
}

async function runInOrder(jobs: readonly ReceivedJob[], options: WorkerLoopOptions): Promise<void> {
  for (const item of jobs) {
    // A failed job holds back the later jobs of its conversation, as a FIFO group does: they are
    // left untouched and come back after it, in order, when their visibility timeout ends.
    if (!(await runOne(item, options))) return;
  }
}

/** True when the job is done. */
async function runOne(item: ReceivedJob, options: WorkerLoopOptions): Promise<boolean> {
  const { job } = item;
  const fields = { jobId: job.id, jobType: job.type, conversationId: job.conversation_id };
  const scope = jobScope(options.jobBudgetMs ?? JOB_BUDGET_MS, Date.now(), options.jobSignal);
  try {
    await options.process(job, scope.signal, scope.deadline);
    await options.source.complete(item.handle);
    return true;
  } catch (error) {
    if (options.isRetryable(error)) {
      options.logger.info('job lost a race and runs again', fields);
      await options.source.retry(item.handle).catch(() => undefined);
      return false;
    }
    options.logger.error('job failed; the queue will deliver it again', {
      ...fields,
      receiveCount: item.receiveCount,
      error: describeError(error),
    });
    return false;
  } finally {
    scope.dispose();
  }
}
