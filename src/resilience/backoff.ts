/**
 * Backoff with jitter: the wait before each retry grows by `factor` from `baseMs` up to `maxMs`,
 * and is stretched by up to `jitter` of itself at random, so that callers failing together do
 * not retry together. A `Retry-After` the failure named is waited at least; a wait that would
 * reach the caller's deadline is no wait at all, since the try after it could not finish.
 */

/** How the wait grows from one retry to the next. */
export interface BackoffSchedule {
  /** The wait before the first retry. */
  readonly baseMs: number;
  /** Each further retry waits this many times longer (default 2). */
  readonly factor?: number;
  /** The longest wait before jitter (default: no limit). */
  readonly maxMs?: number;
  /** Up to this share of a wait is added at random (default 0: none). */
  readonly jitter?: number;
}

/** The wait after `failures` failures (1 for the first), within the schedule's bounds. */
export function backoffDelay(
  schedule: BackoffSchedule,
  failures: number,
  random: () => number = Math.random,
): number {
  const nominal = schedule.baseMs * (schedule.factor ?? 2) ** Math.max(0, failures - 1);
  const bounded = Math.min(nominal, schedule.maxMs ?? Number.POSITIVE_INFINITY);
  const jitter = schedule.jitter ?? 0;
  return jitter === 0 ? bounded : bounded * (1 + jitter * random());
}

export interface RetryWaitOptions {
  /** Retries allowed after the first failure; after that there is no wait (default: no limit). */
  readonly retries?: number;
  /** The least wait, e.g. a `Retry-After` the failure named. */
  readonly retryAfterMs?: number;
  /** When the caller's work must be over (ms since the epoch). */
  readonly deadline?: number;
  /** A number in [0, 1); defaults to Math.random. */
  readonly random?: () => number;
  readonly now?: () => number;
}

/**
 * The wait before trying again after `failures` failures, or undefined when the retries are
 * used up or the wait would reach the deadline.
 */
export function retryWait(
  schedule: BackoffSchedule,
  failures: number,
  options: RetryWaitOptions = {},
): number | undefined {
  if (failures < 1 || failures > (options.retries ?? Number.POSITIVE_INFINITY)) return undefined;
  const waitMs = Math.max(
    backoffDelay(schedule, failures, options.random),
    options.retryAfterMs ?? 0,
  );
  const now = options.now ?? Date.now;
  if (options.deadline !== undefined && now() + waitMs >= options.deadline) return undefined;
  return waitMs;
}

/**
 * Resolves after `ms`; rejects with the signal's reason (as fetch does) when `signal` aborts
 * first. Timers come from the global `setTimeout`, so fake timers drive it in tests.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
