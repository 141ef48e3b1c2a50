import { type A2AAgentClass, isA2AAgentClass } from '../a2a/agent.js';
import { A2ARunData, startA2ARun } from '../a2a/runData.js';
import { isReactAgentClass, type ReactAgentClass, ReactRunner } from '../agents/index.js';
import type { Assistant, LlmConfig, ReactSubAgent } from '../assistant/index.js';
import type { AgentInvocation } from '../dialogue/index.js';
import { exportAt, type ImportedModules, loadPreCallHooks } from '../extensions/index.js';
import type { ToolChatPort } from '../llm/index.js';
import { McpAgentTools, type McpGateway } from '../mcp/index.js';
import type { Logger } from '../resilience/index.js';
import { SwitchboardError } from '../resilience/index.js';
import type {
  AgentRunner,
  AgentRunners,
  CancelScope,
  CancelTarget,
  SecretStore,
  StepContext,
  StepResult,
} from '../runtime/index.js';

/**
 * A `configuration.module` that does not name a class of the agent's kind.
 * Code `AGENT_MODULE_INVALID`.
 */
export class AgentModuleError extends SwitchboardError {
  override readonly name = 'AgentModuleError';
  override readonly code = 'AGENT_MODULE_INVALID';
}

/** The classes the project's agents name in `configuration.module`, by agent name. */
export interface AgentClasses {
  readonly react: Record<string, ReactAgentClass>;
  readonly a2a: Record<string, A2AAgentClass>;
}

/**
 * The classes the project's agents name in `configuration.module`: imported once (from the
 * bundle's modules when given) and checked to extend `McpOpenAgent` or `McpTaskAgent` (ReAct
 * agents) or `A2AAgent` (A2A agents).
 */
export async function loadAgentClasses(
  assistant: Assistant,
  modules: ImportedModules = {},
): Promise<AgentClasses> {
  const classes: AgentClasses = { react: {}, a2a: {} };
  for (const agent of Object.values(assistant.agents)) {
    const module = agent.configuration.module;
    const location = module ? assistant.extensions[module] : undefined;
    if (!module || !location) continue;
    const value = await exportAt(location, modules);
    if (agent.protocol === 'RASA') {
      if (!isReactAgentClass(value))
        throw moduleError(module, agent.name, 'McpOpenAgent or McpTaskAgent');
      classes.react[agent.name] = value;
    } else {
      if (!isA2AAgentClass(value)) throw moduleError(module, agent.name, 'A2AAgent');
      classes.a2a[agent.name] = value;
    }
  }
  return classes;
}

function moduleError(module: string, agent: string, base: string): AgentModuleError {
  return new AgentModuleError(
    `${module} (configuration.module of ${agent}) must be a class that extends ${base}`,
  );
}

/** The runners of one process, by protocol: ReAct agents (`RASA`) and A2A agents. */
export function agentRunners(runners: {
  readonly react?: AgentRunner;
  readonly a2a?: AgentRunner;
}): AgentRunners {
  return {
    runnerFor: (agent) => (agent.protocol === 'RASA' ? runners.react : runners.a2a),
  };
}

export interface ProjectAgentsOptions {
  readonly assistant: Assistant;
  readonly models: (llm: LlmConfig | undefined) => ToolChatPort;
  readonly gateway: McpGateway;
  readonly secrets: SecretStore;
  readonly modules?: ImportedModules;
  /** The key A2A push tokens are derived from; without it, A2A tasks are polled. */
  readonly pushKey?: () => Promise<string>;
  /** The base URL of push notifications for agents that configure none (the local stack's). */
  readonly pushBaseUrl?: () => string | undefined;
  readonly logger?: Logger;
  readonly now?: () => number;
  readonly fetch?: typeof fetch;
}

/**
 * The project's agent runners, built once per process (per warm container): models from
 * `models`, MCP tools through `gateway`, A2A agents with credentials from `secrets`, custom
 * classes and hooks from the project's modules.
 */
export async function projectAgents(options: ProjectAgentsOptions): Promise<AgentRunners> {
  const { assistant, gateway } = options;
  const classes = await loadAgentClasses(assistant, options.modules);
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
    classes: classes.react,
    ...(options.now ? { now: options.now } : {}),
  });
  const a2a = await a2aRunner(options, classes.a2a);
  return agentRunners(a2a ? { react, a2a } : { react });
}

/**
 * The runner of the project's A2A agents, when it has some. The A2A client and its SDK load at
 * the first step or cancellation of an A2A run, not when the process starts: a cold start that
 * serves flows and ReAct agents does not pay for them.
 */
async function a2aRunner(
  options: ProjectAgentsOptions,
  classes: Record<string, A2AAgentClass>,
): Promise<AgentRunner | undefined> {
  const { assistant } = options;
  if (!Object.values(assistant.agents).some((agent) => agent.protocol === 'A2A')) return undefined;
  const hooks = await loadPreCallHooks(assistant, options.modules);
  return new OnDemandA2ARunner(async () => {
    const { A2ARunner } = await import('../a2a/runner.js');
    return new A2ARunner({
      assistant,
      secrets: options.secrets,
      hooks,
      classes,
      ...(options.pushKey ? { pushKey: options.pushKey } : {}),
      ...(options.pushBaseUrl ? { pushBaseUrl: options.pushBaseUrl } : {}),
      ...(options.logger ? { logger: options.logger } : {}),
      ...(options.now ? { now: options.now } : {}),
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
  });
}

/** An A2A runner whose client is built, once, when a run first needs it. */
export class OnDemandA2ARunner implements AgentRunner<A2ARunData> {
  readonly dataSchema = A2ARunData;
  private loading: Promise<AgentRunner<A2ARunData>> | undefined;

  constructor(private readonly load: () => Promise<AgentRunner<A2ARunData>>) {}

  start(invocation: AgentInvocation): A2ARunData {
    return startA2ARun(invocation);
  }

  async step(data: A2ARunData, context: StepContext): Promise<StepResult<A2ARunData>> {
    return (await this.runner()).step(data, context);
  }

  async cancel(target: CancelTarget<A2ARunData>, scope: CancelScope): Promise<void> {
    // Nothing left running remotely: no task to cancel, and no client to load for it.
    if (!target.data?.taskId && !target.session?.task_id) return;
    await (await this.runner()).cancel?.(target, scope);
  }

  private runner(): Promise<AgentRunner<A2ARunData>> {
    if (!this.loading) {
      const loading = this.load();
      this.loading = loading;
      // A load that failed is tried again by the next step.
      loading.catch(() => {
        if (this.loading === loading) this.loading = undefined;
      });
    }
    return this.loading;
  }
}
