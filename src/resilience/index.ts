export {
  type BackoffSchedule,
  backoffDelay,
  type RetryWaitOptions,
  retryWait,
  sleep,
} from './backoff.js';
export { parseRetryAfter } from './retryAfter.js';
export { timeoutSignal } from './timeoutSignal.js';
export { type WithinLimits, within } from './within.js';
