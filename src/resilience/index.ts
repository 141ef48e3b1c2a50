export { parseRetryAfter } from './retryAfter.js';
export { timeoutSignal } from './timeoutSignal.js';
