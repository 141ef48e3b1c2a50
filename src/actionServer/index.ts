export { type ActionAnswer, type AnswerOutcome, answerOutcome } from './answer.js';
export {
  ActionServerClient,
  type CallOptions,
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_S,
  IDEMPOTENCY_HEADER,
  MAX_ANSWER_BYTES,
  type ServerReply,
} from './client.js';
export { type RasaDomain, rasaDomain, sendsDomain } from './domain.js';
export { ActionServerError, ActionServerUnavailableError, PythonActionError } from './errors.js';
export { botEventResponse, responseOf } from './messages.js';
export {
  type ActionServerOptions,
  actionServerActions,
  projectActions,
  RASA_VERSION,
} from './port.js';
export { parseData, type RasaEvent, rasaEvent } from './rasaEvents.js';
export { rasaFrame, rasaTracker } from './tracker.js';
