/**
 * Retries of one A2A request (`configuration.max_retries`): a connection that fails, or an answer
 * of 408, 429 or 5xx, is tried again after 0.25 s, 0.5 s, 1 s…, each stretched by up to a fifth
 * at random, within the request's signal. An answer that asks for a longer wait (`Retry-After`)
 * is returned as it is: the step then fails in a way worth another try, and the runtime's delayed
 * retry waits for it without holding a worker. A retried message keeps its message id, so an
 * agent that saw the first try can recognise the second.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { parseRetryAfter } from '../resilience/index.js';
import { isTransient } from './errors.js';

/** The first retry's delay; each further retry doubles it. */
export const RETRY_BASE_MS = 250;
/** The longest `Retry-After` waited for within the request. */
export const MAX_INLINE_WAIT_MS = 2000;

const RETRIED_STATUSES = new Set([408, 429, 500, 502, 503, 504]);

export function retryingFetch(
  base: typeof fetch,
  retries: number,
  random: () => number = Math.random,
): typeof fetch {
  return async (input, init) => {
    for (let failures = 0; ; failures++) {
      let waitMs = RETRY_BASE_MS * 2 ** failures * (1 + 0.2 * random());
      try {
        const response = await base(input, init);
        if (failures >= retries || !RETRIED_STATUSES.has(response.status)) return response;
        const asked = parseRetryAfter(response.headers);
        if (asked !== undefined && asked > MAX_INLINE_WAIT_MS) return response;
        waitMs = Math.max(waitMs, asked ?? 0);
        await response.body?.cancel().catch(() => undefined);
      } catch (error) {
        if (init?.signal?.aborted || failures >= retries || !isTransient(error)) throw error;
      }
      // Aborted while waiting: like fetch, reject with the signal's reason.
      await sleep(waitMs, undefined, init?.signal ? { signal: init.signal } : {}).catch(
        (aborted: unknown) => {
          throw init?.signal?.reason ?? aborted;
        },
      );
    }
  };
}
