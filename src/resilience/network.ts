/**
 * What a failed request says about trying again, whoever made it: an HTTP status, or an error
 * of the connection (refused, reset, timed out, aborted by its own timeout).
 */
import { SwitchboardError } from './errors.js';

/** Network error codes after which a later try may succeed. */
const TRANSIENT_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND']);

/** Whether an HTTP status is worth another try later: 408, 429 or a 5xx. */
export function isTransientStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/**
 * The network error code (`ECONNREFUSED`, …) of an error or of one of its causes. The codes of
 * Switchboard's own errors are not network codes: a reason already says what they mean.
 */
export function networkCodeOf(error: unknown): string | undefined {
  for (let current: unknown = error; current instanceof Error; current = current.cause) {
    if (current instanceof SwitchboardError) continue;
    if ('code' in current && typeof current.code === 'string') return current.code;
  }
  return undefined;
}

/**
 * Whether a request failed on the way, not by the peer's answer, in a way a later try may
 * overcome: a timeout or abort, fetch's `fetch failed` or `terminated`, or a network error code.
 */
export function isTransientNetworkFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'AbortError' || error.name === 'TimeoutError') return true;
  if (error instanceof TypeError && /fetch failed|terminated/i.test(error.message)) return true;
  for (let current: unknown = error; current instanceof Error; current = current.cause) {
    if (
      'code' in current &&
      typeof current.code === 'string' &&
      TRANSIENT_CODES.has(current.code)
    ) {
      return true;
    }
  }
  return false;
}
