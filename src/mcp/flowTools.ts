import type { McpToolCall, McpToolPort, McpToolResult } from '../dialogue/index.js';
import type { Logger } from '../resilience/index.js';
import type { McpGateway } from './gateway.js';
import { failureReason } from './reason.js';

/**
 * MCP tools as flows' `call` steps use them: through the gateway, with the step's context for
 * the server's hook. A failure is logged with step, server and tool and rethrown; the flow then
 * ends with the internal-error pattern.
 */
export function mcpFlowTools(gateway: McpGateway, logger?: Logger): McpToolPort {
  return {
    callTool: async (call: McpToolCall): Promise<McpToolResult> => {
      const where = {
        flow: call.flowId,
        step: call.stepId,
        server: call.serverName,
        tool: call.toolName,
      };
      try {
        const result = await gateway.call(
          {
            serverName: call.serverName,
            toolName: call.toolName,
            arguments: call.arguments,
            slots: call.slots,
            context: {
              senderId: call.senderId,
              toolName: call.toolName,
              serverName: call.serverName,
              flowId: call.flowId,
              stepId: call.stepId,
            },
            callKey: call.callKey,
          },
          {
            ...(call.signal ? { signal: call.signal } : {}),
            ...(call.deadline !== undefined ? { deadline: call.deadline } : {}),
          },
        );
        if (result.isError) logger?.warn('MCP tool of a flow answered with an error', where);
        return result;
      } catch (error) {
        if (!call.signal?.aborted) {
          logger?.error('MCP tool call of a flow failed', {
            ...where,
            error: failureReason(error),
          });
        }
        throw error;
      }
    },
  };
}
