export {
  type BackoffSchedule,
  backoffDelay,
  type RetryWaitOptions,
  retryWait,
  sleep,
} from './backoff.js';
export {
  codeOf,
  isTransient,
  retryAfterOf,
  SwitchboardError,
  type SwitchboardErrorOptions,
  WireError,
  type WireErrorOptions,
} from './errors.js';
export { describeError, type LogFields, type Logger } from './logger.js';
export { isTransientNetworkFailure, isTransientStatus, networkCodeOf } from './network.js';
export { importOptional, OptionalPackageError } from './optionalPackage.js';
export {
  MAX_REASON_CHARS,
  MIN_SECRET_CHARS,
  REDACTED,
  Redactor,
  redact,
  safeReason,
} from './redact.js';
export { parseRetryAfter } from './retryAfter.js';
export { linkedSignal, type TimedSignal, timedSignal, timeoutSignal } from './timeoutSignal.js';
export { earliest, type WithinLimits, within } from './within.js';
