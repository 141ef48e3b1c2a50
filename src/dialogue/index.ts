export { type CoercionResult, coerceSlotValue } from './commands/coerce.js';
export { Command } from './commands/command.js';
export type { AgentUpdate, RunWaiter, TurnOptions, UserMessage } from './engine.js';
export { DialogueEngine } from './engine.js';
export {
  DialogueExecutionError,
  ModelUnavailableError,
  ToolUnavailableError,
  TurnUnavailableError,
} from './errors.js';
export type { EventName } from './events.js';
export { DialogueEvent } from './events.js';
export { AgentFrame, FlowFrame, Frame, PatternFrame } from './frames.js';
export type { DialogueModel } from './model.js';
export type {
  ActionContext,
  ActionPort,
  ActionResult,
  AgentInvocation,
  AgentPending,
  AgentPort,
  ChatMessage,
  DialoguePorts,
  LlmPort,
  McpToolCall,
  McpToolPort,
  McpToolResult,
  RephraseFailure,
  RephrasePort,
} from './ports.js';
export { NO_ACTIONS } from './ports.js';
export { REPHRASED_FROM } from './rephrase/candidates.js';
export { BotMessage } from './responses/botMessage.js';
export {
  applyEvent,
  ConversationState,
  initialState,
  LatestMessage,
  latestMessageTime,
  parseState,
  replay,
  STATE_VERSION,
  UnsupportedStateVersionError,
} from './state.js';
export type { TurnResult } from './turnResult.js';
