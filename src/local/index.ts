export { StateFolderInUseError } from '../adapters/local/stateLock.js';
export {
  BlankRestTokenError,
  LOCAL_TABLE,
  type LocalStack,
  type LocalStackOptions,
  startLocalStack,
} from './localStack.js';
export { shown, terminalText } from './turnLines.js';
