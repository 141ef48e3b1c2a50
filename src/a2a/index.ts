export { A2AAgent, type A2AAgentClass, isA2AAgentClass } from './agent.js';
export { A2AConnection, CARD_TTL_MS } from './connection.js';
export { A2ARequestError, A2AUnavailableError } from './errors.js';
export {
  dataPart,
  outgoingMessage,
  outputOfMessage,
  outputOfTask,
  textPart,
} from './messages.js';
export {
  isPushToken,
  PUSH_KEY_SECRET,
  PUSH_ROUTE,
  PushFormatError,
  PushUpdate,
  parsePushNotification,
  pushToken,
  pushUrl,
} from './push.js';
export { A2ARunData } from './runData.js';
export { A2ARunner, type A2ARunnerOptions } from './runner.js';
