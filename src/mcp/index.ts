export {
  type AgentTool,
  type AgentToolCall,
  type AgentToolOutcome,
  McpAgentTools,
  offersTool,
} from './agentTools.js';
export { type AuthSettings, type ServerAuth, serverAuth } from './auth.js';
export type {
  McpCallOptions,
  McpCallResult,
  McpClient,
  McpTool,
  McpToolRequest,
} from './client.js';
export { ConversationSecretError, conversationSecretHook } from './conversationSecretHook.js';
export {
  McpRequestError,
  McpToolRefusedError,
  McpUnavailableError,
  OAuthTokenError,
  PreCallHookError,
} from './errors.js';
export { mcpFlowTools } from './flowTools.js';
export { type GatewayCall, McpGateway, type McpGatewayOptions } from './gateway.js';
export { callMeta, IDEMPOTENCY_KEY_META, idempotencyKey } from './meta.js';
export { OnDemandConnection } from './onDemandConnection.js';
export { runPreCallHook } from './preCallHooks.js';
export { type ProjectMcp, projectMcp } from './projectMcp.js';
export { MAX_TOOL_RESULT_CHARS, toolResultText } from './toolResultText.js';
