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

/** A signal that ends with its parent (or after a time), and what removes its timer and listener. */
export interface TimedSignal {
  readonly signal: AbortSignal;
  /** Aborts the signal now. */
  abort(reason: unknown): void;
  /** Clears the timer and the listener on the parent; the signal stays as it is. */
  dispose(): void;
}

/**
 * A signal that aborts when `parent` does (with its reason) or after `ms` (with `reason()`, a
 * `TimeoutError` by default), for a call whose end is known: `dispose` it then. Unlike
 * `timeoutSignal`, nothing of it lingers after the call: no timer waits for its time, and the
 * parent keeps no dependent signal (`AbortSignal.any` costs tens of microseconds a call on
 * Node 20 and leaves its timer running).
 */
export function timedSignal(
  ms: number,
  parent?: AbortSignal,
  reason: () => unknown = () => new DOMException('The operation timed out.', 'TimeoutError'),
): TimedSignal {
  const linked = linkedSignal(parent);
  const timer = setTimeout(() => linked.abort(reason()), Math.max(0, ms));
  return {
    signal: linked.signal,
    abort: linked.abort,
    dispose: () => {
      clearTimeout(timer);
      linked.dispose();
    },
  };
}

/**
 * A signal of its own that aborts when `parent` does, with its reason, for one call: `dispose`
 * it when the call ends, and the parent keeps nothing of it. For a library that leaves a
 * listener on the signal it is given, where the caller's signal outlives many calls.
 */
export function linkedSignal(parent?: AbortSignal): TimedSignal {
  const controller = new AbortController();
  const onAbort = () => controller.abort(parent?.reason);
  if (parent?.aborted) onAbort();
  else parent?.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    abort: (why) => controller.abort(why),
    dispose: () => parent?.removeEventListener('abort', onAbort),
  };
}
