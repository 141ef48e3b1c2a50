export type { ChatModel, ModelFactory, ModelFactoryOptions, SecretLookup } from './modelFactory.js';
export { modelFactory } from './modelFactory.js';
export type { OpenAiChatSettings } from './openaiClient.js';
export { LlmRequestError, OPENAI_DEFAULT_BASE_URL, OpenAiChatModel } from './openaiClient.js';
export {
  chatModelFor,
  DEFAULT_CHAT_MODEL,
  hasModelAccess,
  NoModelCredentialsError,
  UnknownModelGroupError,
} from './resolve.js';
export type { SecretResolver } from './secrets.js';
export { environmentSecrets, MissingSecretError } from './secrets.js';
export type {
  TokenUsage,
  ToolChatPort,
  ToolChatRequest,
  ToolChatResponse,
  ToolChoice,
  ToolDefinition,
} from './toolChat.js';
export { ToolCall, ToolChatMessage } from './toolChat.js';
