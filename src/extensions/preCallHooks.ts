import type { Assistant } from '../assistant/index.js';
import { exportAt, type ImportedModules } from './moduleExports.js';
import type { PreCallHook } from './outboundCallHook.js';

/**
 * The project's `pre_call_hook` functions (of MCP servers and A2A agents), by the dotted path
 * the project names them with. Modules are imported once, here; `modules` lets a bundle pass the
 * modules it already imported. Validation has checked that each is a function.
 */
export async function loadPreCallHooks(
  assistant: Assistant,
  modules: ImportedModules = {},
): Promise<Record<string, PreCallHook>> {
  const paths = new Set<string>();
  for (const server of Object.values(assistant.mcpServers)) {
    if (server.pre_call_hook) paths.add(server.pre_call_hook);
  }
  for (const agent of Object.values(assistant.agents)) {
    if (agent.protocol === 'A2A' && agent.configuration.pre_call_hook) {
      paths.add(agent.configuration.pre_call_hook);
    }
  }
  const hooks: Record<string, PreCallHook> = {};
  for (const dotted of paths) {
    const location = assistant.extensions[dotted];
    if (!location) continue;
    const hook = await exportAt(location, modules);
    if (typeof hook === 'function') hooks[dotted] = hook as PreCallHook;
  }
  return hooks;
}
