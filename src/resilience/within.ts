export interface WithinLimits {
  /** Stops waiting with the signal's reason (as fetch does) when it aborts. */
  readonly signal?: AbortSignal;
  /** Stops waiting once this moment passes (ms since the epoch). */
  readonly deadline?: number;
  /** What waiting rejects with once the deadline passes. */
  readonly timedOut?: () => unknown;
  readonly now?: () => number;
}

/**
 * `promise`, or a rejection once `signal` aborts or `deadline` passes, whichever comes first.
 * The promise itself runs on (another caller may share it); the timer and the listener on the
 * signal are removed once the race is over, so a long-lived signal gathers none.
 */
export function within<T>(promise: Promise<T>, limits: WithinLimits): Promise<T> {
  const { signal, deadline } = limits;
  if (!signal && deadline === undefined) return promise;
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const now = limits.now ?? Date.now;
    // Whichever way the race ends, nothing of it is left behind.
    const end =
      <V>(settle: (value: V) => void) =>
      (value: V) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        settle(value);
      };
    const onAbort = end(() => reject(signal?.reason));
    const timer =
      deadline === undefined
        ? undefined
        : setTimeout(
            end(() => reject(limits.timedOut?.() ?? new Error('the deadline passed'))),
            Math.max(0, deadline - now()),
          );
    signal?.addEventListener('abort', onAbort, { once: true });
    promise.then(end(resolve), end(reject));
  });
}

/** The earlier of two deadlines (ms since the epoch), either of which may be unset. */
export function earliest(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return Math.min(a, b);
}
