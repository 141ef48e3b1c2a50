import type { Assistant, LlmConfig, ReactSubAgent } from '../assistant/index.js';
import { exportAt, type ImportedModules } from '../extensions/index.js';
import type { ToolChatPort } from '../llm/index.js';
import { McpAgentTools, type McpGateway } from '../mcp/index.js';
import type { AgentRunner, AgentRunners } from '../runtime/index.js';
import { isReactAgentClass, type ReactAgentClass } from './reactAgent.js';
import { ReactRunner } from './reactRunner.js';

/** A `configuration.module` that does not name a ReAct agent class. */
export class AgentModuleError extends Error {
  override readonly name = 'AgentModuleError';
}

/**
 * The classes the project's ReAct agents name in `configuration.module`, by agent name:
 * imported once (from the bundle's modules when given) and checked to extend `McpOpenAgent` or
 * `McpTaskAgent`.
 */
export async function loadAgentClasses(
  assistant: Assistant,
  modules: ImportedModules = {},
): Promise<Record<string, ReactAgentClass>> {
  const classes: Record<string, ReactAgentClass> = {};
  for (const agent of Object.values(assistant.agents)) {
    if (agent.protocol !== 'RASA' || !agent.configuration.module) continue;
    const location = assistant.extensions[agent.configuration.module];
    if (!location) continue;
    const value = await exportAt(location, modules);
    if (!isReactAgentClass(value)) {
      throw new AgentModuleError(
        `${agent.configuration.module} (configuration.module of ${agent.name}) must be a class that extends McpOpenAgent or McpTaskAgent`,
      );
    }
    classes[agent.name] = value;
  }
  return classes;
}

/** The runners of one process: ReAct agents here; other protocols get theirs when they are built. */
export function agentRunners(runners: { readonly react?: AgentRunner }): AgentRunners {
  return {
    runnerFor: (agent) => (agent.protocol === 'RASA' ? runners.react : undefined),
  };
}

/**
 * The project's agent runners, built once per process (per warm container): models from
 * `models`, MCP tools through `gateway`, custom classes from the project's modules.
 */
export async function projectAgents(options: {
  readonly assistant: Assistant;
  readonly models: (llm: LlmConfig | undefined) => ToolChatPort;
  readonly gateway: McpGateway;
  readonly modules?: ImportedModules;
  readonly now?: () => number;
}): Promise<AgentRunners> {
  const { assistant, gateway } = options;
  const tools = new Map<string, McpAgentTools>();
  const react = new ReactRunner({
    assistant,
    models: options.models,
    tools: (agent: ReactSubAgent) => {
      let agentTools = tools.get(agent.name);
      if (!agentTools) {
        agentTools = new McpAgentTools(gateway, agent.name, agent.mcpServers);
        tools.set(agent.name, agentTools);
      }
      return agentTools;
    },
    classes: await loadAgentClasses(assistant, options.modules),
    ...(options.now ? { now: options.now } : {}),
  });
  return agentRunners({ react });
}
