import type { Assistant } from '../assistant/index.js';
import type { McpToolPort } from '../dialogue/index.js';
import { type ImportedModules, loadPreCallHooks } from '../extensions/index.js';
import type { Logger } from '../resilience/index.js';
import type { SecretStore } from '../runtime/index.js';
import { mcpFlowTools } from './flowTools.js';
import { McpGateway } from './gateway.js';

/** A project's MCP side: the pooled gateway (close it on shutdown) and the tools flows call. */
export interface ProjectMcp {
  readonly gateway: McpGateway;
  readonly flowTools: McpToolPort;
}

/**
 * The MCP side every entry point builds once per process (per warm container): the project's
 * servers behind one gateway, with its `pre_call_hook` functions (from the bundle's modules when
 * given) and credentials from `secrets`.
 */
export async function projectMcp(options: {
  readonly assistant: Assistant;
  readonly secrets: SecretStore;
  readonly logger?: Logger;
  readonly modules?: ImportedModules;
}): Promise<ProjectMcp> {
  const { assistant, secrets, logger } = options;
  const gateway = new McpGateway({
    assistant,
    secrets,
    hooks: await loadPreCallHooks(assistant, options.modules),
    ...(logger ? { logger } : {}),
  });
  return { gateway, flowTools: mcpFlowTools(gateway, logger) };
}
