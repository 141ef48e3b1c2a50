/**
 * The wait an HTTP answer asks for, in milliseconds: `retry-after-ms`, or `Retry-After` in
 * seconds or as an HTTP date (counted from `now`); undefined when it asks for none.
 */
export function parseRetryAfter(
  headers: Headers | undefined,
  now: () => number = Date.now,
): number | undefined {
  const ms = Number(headers?.get('retry-after-ms') ?? Number.NaN);
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers?.get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now());
}
