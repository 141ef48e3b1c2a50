import type { McpToolPort } from '../dialogue/index.js';

/** Tools called from flows fail clearly (the flow gets the internal-error pattern) until an MCP client is configured. */
export const UNAVAILABLE_TOOLS: McpToolPort = {
  callTool: async (call) => {
    throw new Error(
      `MCP tool calls are not available in this build (tool ${call.toolName} on ${call.serverName})`,
    );
  },
};
