import { JOB_BUDGET_MS, type JobScope, jobScope } from './jobBudget.js';
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

export interface WorkerLogger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export interface WorkerLoopOptions {
  readonly source: JobSource;
  /** Runs a job with its own signal, which aborts at `deadline` (ms since the epoch) or on a stop. */
  readonly process: (job: Job, signal: AbortSignal, deadline: number) => Promise<unknown>;
  /** Decides whether a failure is worth an immediate retry (a lost optimistic-concurrency race). */
  readonly isRetryable: (error: unknown) => boolean;
  readonly logger: WorkerLogger;
  /** Jobs in progress at most (default 10); a new one is taken as soon as one ends. */
  readonly concurrency?: number;
  /** Messages taken per receive at most (1–10, default 10), never more than free slots. */
  readonly batch?: number;
  /** Stops taking jobs; jobs already taken run to their end. */
  readonly signal: AbortSignal;
  /** Aborts jobs in progress (a hard stop); by default only their budget does. */
  readonly jobSignal?: AbortSignal;
  /** Each job's budget (default `JOB_BUDGET_MS`). */
  readonly jobBudgetMs?: number;
}

/**
 * Takes jobs until the signal aborts and runs each in a pool of `concurrency` slots, taking the
 * next job as soon as a slot frees, so one slow job holds only its own slot. Completed jobs are
 * removed; a lost race is released for an immediate retry; any other failure stays on the queue,
 * which delivers it again after its visibility timeout and moves it to the dead-letter queue after
 * too many attempts. Jobs of one conversation never run at the same time: the FIFO queue hands out
 * one per group at a time, and jobs of one conversation received together run one after another.
 */
export async function runWorkerLoop(options: WorkerLoopOptions): Promise<void> {
  const { source, logger, signal } = options;
  const concurrency = Math.max(1, options.concurrency ?? 10);
  const pool = new SlotPool(options);
  const hardStop = () => pool.abortAll(options.jobSignal?.reason);
  options.jobSignal?.addEventListener('abort', hardStop, { once: true });
  try {
    while (!signal.aborted) {
      await pool.slotFree(concurrency, signal);
      if (signal.aborted) break;
      let received: readonly ReceivedJob[];
      try {
        received = await source.receive(
          Math.min(options.batch ?? 10, concurrency - pool.size),
          signal,
        );
      } catch (error) {
        if (signal.aborted) break;
        logger.error('receiving jobs failed', { error: describe(error) });
        await pause(1000, signal);
        continue;
      }
      for (const item of received) pool.start(item);
    }
    await pool.settled();
  } finally {
    options.jobSignal?.removeEventListener('abort', hardStop);
  }
}

/**
 * Jobs in progress, each in a slot from the moment it is received until it is settled. A job of a
 * conversation that already has one in progress waits for it, and is held back if it fails.
 */
class SlotPool {
  private readonly running = new Set<Promise<boolean>>();
  /** The last job taken of each conversation in progress: the next one runs after it. */
  private readonly tails = new Map<string, Promise<boolean>>();
  /** Scopes of the jobs running now: one hard-stop listener aborts them all. */
  private readonly scopes = new Set<JobScope>();
  private wake: (() => void) | undefined;

  constructor(private readonly options: WorkerLoopOptions) {}

  get size(): number {
    return this.running.size;
  }

  start(item: ReceivedJob): void {
    const conversation = item.job.conversation_id;
    const before = this.tails.get(conversation);
    // A failed job holds back the later jobs of its conversation, as a FIFO group does: they are
    // left untouched and come back after it, in order, when their visibility timeout ends.
    const run = (before ?? Promise.resolve(true)).then((ok) => (ok ? this.runOne(item) : false));
    this.tails.set(conversation, run);
    this.running.add(run);
    void run.finally(() => {
      this.running.delete(run);
      if (this.tails.get(conversation) === run) this.tails.delete(conversation);
      this.wake?.();
    });
  }

  /** Resolves when fewer than `concurrency` jobs are in progress, or on a stop. */
  async slotFree(concurrency: number, signal: AbortSignal): Promise<void> {
    while (this.running.size >= concurrency && !signal.aborted) {
      await new Promise<void>((resolve) => {
        const done = () => {
          this.wake = undefined;
          signal.removeEventListener('abort', done);
          resolve();
        };
        this.wake = done;
        signal.addEventListener('abort', done, { once: true });
      });
    }
  }

  abortAll(reason: unknown): void {
    for (const scope of this.scopes) scope.abort(reason);
  }

  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  /** True when the job is done. */
  private async runOne(item: ReceivedJob): Promise<boolean> {
    const { options } = this;
    const { job } = item;
    const fields = { jobId: job.id, jobType: job.type, conversationId: job.conversation_id };
    const scope = jobScope(options.jobBudgetMs ?? JOB_BUDGET_MS, Date.now());
    this.scopes.add(scope);
    if (options.jobSignal?.aborted) scope.abort(options.jobSignal.reason);
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
        error: describe(error),
      });
      return false;
    } finally {
      this.scopes.delete(scope);
      scope.dispose();
    }
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
