/** What keeps each combined signal's timeout alive for as long as the combined signal is. */
const timeouts = new WeakMap<AbortSignal, AbortSignal>();

/**
 * A signal that aborts when any of `signals` does, or with a `TimeoutError` after `ms`. On
 * Node 20, `AbortSignal.any` holds its sources weakly, so an `AbortSignal.timeout` that nothing
 * else holds can be garbage-collected before it fires, and a call it should end runs on: the
 * combined signal holds its timeout here.
 */
export function timeoutSignal(ms: number, ...signals: (AbortSignal | undefined)[]): AbortSignal {
  const timeout = AbortSignal.timeout(Math.max(1, ms));
  const parents = signals.filter((s): s is AbortSignal => s !== undefined);
  if (parents.length === 0) return timeout;
  const combined = AbortSignal.any([...parents, timeout]);
  timeouts.set(combined, timeout);
  return combined;
}
