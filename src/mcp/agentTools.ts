import type { McpConnection } from '../assistant/index.js';
import { SwitchboardError } from '../resilience/index.js';
import type { McpCallOptions, McpTool } from './client.js';
import type { McpGateway } from './gateway.js';
import { isReadOnlyTool } from './readOnly.js';
import { toolResultText } from './toolResultText.js';

/**
 * Failures of one call that the model is told of, to react to: a refused call, a tool not
 * offered, a hook that failed. A transient failure retries the step; anything else is a fault.
 */
const REFUSALS = new Set(['MCP_REQUEST_REFUSED', 'MCP_TOOL_NOT_OFFERED', 'PRE_CALL_HOOK_FAILED']);

/** A tool an agent may call, with the server it lives on. */
export interface AgentTool extends McpTool {
  readonly serverName: string;
  /** Whether the project counts the tool as read-only (see `isReadOnlyTool`). */
  readonly readOnly: boolean;
}

/** A tool call an agent's model asked for. */
export interface AgentToolCall {
  readonly toolName: string;
  readonly arguments: Readonly<Record<string, unknown>>;
  readonly senderId: string;
  readonly slots: Readonly<Record<string, unknown>>;
  /** Stable across retries of the agent's step; see `GatewayCall.callKey`. */
  readonly callKey: string;
}

/** What the model reads back: the result as text, and whether it is an error. */
export interface AgentToolOutcome {
  readonly text: string;
  readonly isError: boolean;
}

/** Whether a connection's `include_tools` / `exclude_tools` let its agent see a tool. */
export function offersTool(connection: McpConnection, toolName: string): boolean {
  if (connection.include_tools && !connection.include_tools.includes(toolName)) return false;
  return !connection.exclude_tools?.includes(toolName);
}

/**
 * The MCP tools of one ReAct agent: those of the servers its `connections` list, filtered by
 * each connection's `include_tools` / `exclude_tools`. A call to any other tool is refused
 * without reaching a server; a refused call, a failing hook and an error the server answered
 * with become error results the model can read. A server that cannot be reached throws
 * `McpUnavailableError`, so the agent's step can be retried.
 */
export class McpAgentTools {
  constructor(
    private readonly gateway: McpGateway,
    private readonly agentId: string,
    private readonly connections: readonly McpConnection[],
  ) {}

  /** The servers' lists the last answer of `list` was made of, and that answer. */
  private last:
    | { readonly from: readonly (readonly McpTool[])[]; readonly tools: AgentTool[] }
    | undefined;

  /**
   * The tools the agent's model sees. A tool name two servers offer goes to the first. While
   * the servers' cached lists stay the same, so does the answer (the same array: do not change it).
   */
  async list(options: McpCallOptions = {}): Promise<readonly AgentTool[]> {
    const from: (readonly McpTool[])[] = [];
    for (const connection of this.connections) {
      from.push(await this.gateway.connection(connection.name).listTools(options));
    }
    const last = this.last;
    if (last && from.every((listed, i) => listed === last.from[i])) return last.tools;
    const tools = new Map<string, AgentTool>();
    this.connections.forEach((connection, i) => {
      const server = this.gateway.connection(connection.name);
      for (const tool of from[i] ?? []) {
        if (offersTool(connection, tool.name) && !tools.has(tool.name)) {
          const readOnly = isReadOnlyTool(server.server, tool);
          tools.set(tool.name, { ...tool, serverName: connection.name, readOnly });
        }
      }
    });
    this.last = { from, tools: [...tools.values()] };
    return this.last.tools;
  }

  async call(call: AgentToolCall, options: McpCallOptions = {}): Promise<AgentToolOutcome> {
    const tool = await this.find(call.toolName, options);
    if (!tool) {
      return {
        text: `The tool ${call.toolName} is not available; use one of the tools you were given.`,
        isError: true,
      };
    }
    try {
      const result = await this.gateway.call(
        {
          serverName: tool.serverName,
          toolName: tool.name,
          arguments: call.arguments,
          slots: call.slots,
          context: {
            senderId: call.senderId,
            toolName: tool.name,
            serverName: tool.serverName,
            agentId: this.agentId,
          },
          callKey: call.callKey,
        },
        options,
      );
      return { text: toolResultText(result), isError: result.isError };
    } catch (error) {
      if (error instanceof SwitchboardError && REFUSALS.has(error.code)) {
        return { text: `The tool ${tool.name} failed: ${error.message}`, isError: true };
      }
      throw error;
    }
  }

  /** The tool among the agent's, listing again once when it is missing (the list may have changed). */
  private async find(toolName: string, options: McpCallOptions): Promise<AgentTool | undefined> {
    const connection = this.connections.find((c) => offersTool(c, toolName));
    if (!connection) return undefined;
    const known = (await this.list(options)).find((t) => t.name === toolName);
    if (known) return known;
    for (const c of this.connections) this.gateway.connection(c.name).forgetTools();
    return (await this.list(options)).find((t) => t.name === toolName);
  }
}
