export type { AssistantBundle } from './assistantBundle.js';
export { AssistantBundleError, generateAssistantBundle } from './assistantBundle.js';
export {
  A2A_SERVER_MODULE,
  a2aServerSource,
  extensionFiles,
  importSpecifier,
  registrySource,
} from './registrySource.js';
export {
  a2aServerSecretNames,
  channelSecretNames,
  deployedSecretNames,
  MODEL_KEY_SECRET,
} from './secretNames.js';
