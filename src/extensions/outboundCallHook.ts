/**
 * What a `pre_call_hook` receives before an outbound MCP tool call or A2A message. Read-only;
 * `senderId` is the key to look credentials up by.
 */
export interface OutboundCallContext {
  readonly senderId: string;
  /** The tool being called (flow `call` step, MCP tool, or custom tool). */
  readonly toolName?: string;
  /** The MCP server, for flow and ReAct MCP calls. */
  readonly serverName?: string;
  /** Set for MCP tools called directly from a flow. */
  readonly flowId?: string;
  readonly stepId?: string;
  /** The sub agent making the call, for ReAct MCP calls and A2A messages. */
  readonly agentId?: string;
}

/** Metadata merged into the outbound call (MCP `_meta`, A2A `Message.metadata`). */
export interface OutboundCallResult {
  readonly metadata: Readonly<Record<string, unknown>>;
}

/**
 * A call-time credential hook. It may return the metadata map itself instead of a result
 * object; it may be synchronous or asynchronous.
 */
export type PreCallHook = (
  context: OutboundCallContext,
) =>
  | OutboundCallResult
  | Readonly<Record<string, unknown>>
  | Promise<OutboundCallResult | Readonly<Record<string, unknown>>>;
