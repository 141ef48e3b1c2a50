import { Duration } from 'aws-cdk-lib';

/** The webhook's timeout: API Gateway ends an HTTP API integration at 30 s. */
export const WEBHOOK_TIMEOUT = Duration.seconds(29);

/** The burst holds at least this many seconds of the steady rate. */
const BURST_SECONDS = 5;

/** The fewest webhook executions that still admit one request per second. */
export const MIN_WEBHOOK_CONCURRENCY = WEBHOOK_TIMEOUT.toSeconds() + BURST_SECONDS;

/** Steady requests per second across the API, and the burst above it. */
export interface ThrottleSettings {
  readonly rateLimit: number;
  readonly burstLimit: number;
}

/**
 * The API throttle that keeps the webhook within `concurrency` executions at once.
 *
 * API Gateway throttles with a token bucket, which admits at most `burst + rate × t` requests in
 * any `t` seconds. A REST channel request holds its execution while it waits for the reply (20 s),
 * and no request outlives the function's timeout, so at most `burst + rate × timeout` run at once.
 * The rate takes what it can while leaving the burst five seconds of it; the burst takes the rest.
 */
export function webhookThrottle(concurrency: number): ThrottleSettings {
  const hold = WEBHOOK_TIMEOUT.toSeconds();
  if (!Number.isInteger(concurrency) || concurrency < MIN_WEBHOOK_CONCURRENCY) {
    throw new RangeError(
      `The webhook needs at least ${MIN_WEBHOOK_CONCURRENCY} concurrent executions to admit one request per second, got ${concurrency}`,
    );
  }
  const rateLimit = Math.floor(concurrency / (hold + BURST_SECONDS));
  return { rateLimit, burstLimit: concurrency - rateLimit * hold };
}
