/**
 * Which tools only read. An agent runs a model answer's calls in the same job as the model call
 * when every one of them only reads: running them again after a lost commit changes nothing.
 * What counts is what the project declares in `endpoints.yml`; a server's own
 * `annotations.readOnlyHint` counts only where the project trusts that server's hints.
 */
import type { McpServer } from '../assistant/index.js';
import type { McpTool } from './client.js';

/** Whether the project counts `tool` of `server` as read-only. */
export function isReadOnlyTool(server: McpServer, tool: McpTool): boolean {
  if (server.read_only === true || server.read_only_tools?.includes(tool.name)) return true;
  return server.trust_read_only_hints === true && tool.readOnlyHint === true;
}
