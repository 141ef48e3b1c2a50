/**
 * The runtime's one retry policy: a step that failed in a way worth another try (a thrown error,
 * a runner's `recoverable_error`, a `retry` answer) runs again as a delayed job after 1 s, 2 s and
 * 4 s, each stretched by up to a fifth at random so that many runs failing together do not retry
 * together; a `retryAfterMs` the failure names is waited at least. After the last retry the run
 * fails for good.
 */

import { retryWait } from '../resilience/index.js';

/** Retries after the first failure before the run fails. */
export const MAX_RETRIES = 3;
/** The first retry's delay; each further retry doubles it. */
export const BASE_DELAY_MS = 1000;
/** Up to this share of a delay is added at random. */
export const JITTER = 0.2;

/**
 * The delay before retry number `failures` (1 for the first failure), or undefined when the
 * retries are used up. `random` gives a number in [0, 1).
 */
export function retryDelay(
  failures: number,
  random: () => number,
  retryAfterMs?: number,
): number | undefined {
  const schedule = { baseMs: BASE_DELAY_MS, jitter: JITTER };
  const backoff = retryWait(schedule, failures, { retries: MAX_RETRIES, random });
  return backoff === undefined ? undefined : Math.max(Math.round(backoff), retryAfterMs ?? 0);
}
