/**
 * Retries of one A2A request (`configuration.max_retries`): a connection that fails, or an answer
 * of 408, 429 or 5xx, is tried again after 0.25 s, 0.5 s, 1 s…, each stretched by up to a fifth
 * at random, within the request's signal. An answer that asks for a longer wait (`Retry-After`)
 * is returned as it is and the wait reported to `onLongWait`: the step then fails in a way worth
 * another try, and the runtime's delayed retry waits that long without holding a worker. A retried message keeps its message id, so an
 * agent that saw the first try can recognise the second.
 */
import { parseRetryAfter, retryWait, sleep } from '../resilience/index.js';
import { isTransientA2AFailure } from './errors.js';

/** The wait before the first retry (0.25 s), doubling, stretched by up to a fifth at random. */
export const RETRY_BACKOFF = { baseMs: 250, jitter: 0.2 } as const;
/** The longest `Retry-After` waited for within the request. */
export const MAX_INLINE_WAIT_MS = 2000;

const RETRIED_STATUSES = new Set([408, 429, 500, 502, 503, 504]);

export function retryingFetch(
  base: typeof fetch,
  retries: number,
  random: () => number = Math.random,
  onLongWait: (waitMs: number) => void = () => {},
): typeof fetch {
  return async (input, init) => {
    const signal = init?.signal ?? undefined;
    for (let failures = 1; ; failures++) {
      let waitMs: number | undefined;
      try {
        const response = await base(input, init);
        if (!RETRIED_STATUSES.has(response.status)) return response;
        const asked = parseRetryAfter(response.headers);
        if (asked === undefined || asked <= MAX_INLINE_WAIT_MS) {
          waitMs = retryWait(RETRY_BACKOFF, failures, { retries, random, retryAfterMs: asked });
        }
        if (waitMs === undefined) {
          if (asked !== undefined && asked > MAX_INLINE_WAIT_MS) onLongWait(asked);
          return response;
        }
        await response.body?.cancel().catch(() => undefined);
      } catch (error) {
        if (!signal?.aborted && isTransientA2AFailure(error)) {
          waitMs = retryWait(RETRY_BACKOFF, failures, { retries, random });
        }
        if (waitMs === undefined) throw error;
      }
      // Aborted while waiting: like fetch, rejects with the signal's reason.
      await sleep(waitMs, signal);
    }
  };
}
