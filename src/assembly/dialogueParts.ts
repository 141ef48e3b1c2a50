/**
 * The dialogue parts of a project, assembled once for every entry point that runs
 * conversations (the Lambda worker, the local stack): its models, its MCP servers (for flows and
 * for agents), its agents' runners and its custom actions. Entry points choose where secrets,
 * modules and the model key come from; this decides how the parts fit together.
 */
import { projectActions } from '../actionServer/index.js';
import type { Assistant } from '../assistant/index.js';
import type { ActionPort, LlmPort } from '../dialogue/index.js';
import { type ImportedModules, loadProjectActions } from '../extensions/index.js';
import { type ModelFactoryOptions, modelFactory, type ToolChatPort } from '../llm/index.js';
import { projectMcp } from '../mcp/index.js';
import type { Logger } from '../resilience/index.js';
import type { DialogueParts, SecretStore } from '../runtime/index.js';
import { projectAgents } from './agentRunners.js';

export interface DialogueAssemblyOptions {
  readonly assistant: Assistant;
  /** The environment models read (`OPENAI_API_KEY`, `OPENAI_BASE_URL`, `${VAR}`s). */
  readonly env: ModelFactoryOptions['env'];
  readonly secrets: SecretStore;
  /** What the parts log through: MCP calls, action-server calls, rephrasing. */
  readonly logger: Logger;
  /** Without model access: a stand-in (local demo model), or the key from a secret (deployed). */
  readonly withoutAccess: NonNullable<ModelFactoryOptions['withoutAccess']>;
  /** The project's extension modules, as a bundle ships them; imported by path without. */
  readonly modules?: ImportedModules;
  /** The key A2A push tokens are derived from; without it, A2A tasks are polled. */
  readonly pushKey?: () => Promise<string>;
  /** The base URL of push notifications for agents that configure none. */
  readonly pushBaseUrl: () => string | undefined;
  /** Replaces the command generator's model (tests and `switchboard test` pass a scripted one). */
  readonly llm?: LlmPort;
  /** Replaces the agents' model (tests pass a scripted one). */
  readonly agentModel?: ToolChatPort;
  /** Wraps the project's custom actions (`switchboard test` puts its stubs in front). */
  readonly wrapActions?: (actions: ActionPort) => ActionPort;
}

export interface AssembledDialogue {
  readonly dialogue: DialogueParts;
  /** Closes the connections to the MCP servers. */
  close(): Promise<void>;
}

/** Assembles the dialogue parts `createRuntime` takes. */
export async function assembleDialogue(
  options: DialogueAssemblyOptions,
): Promise<AssembledDialogue> {
  const { assistant, secrets, logger, modules, llm, agentModel } = options;
  const models = modelFactory({
    assistant,
    env: options.env,
    secrets,
    withoutAccess: options.withoutAccess,
  });
  const mcp = await projectMcp({ assistant, secrets, logger, ...(modules ? { modules } : {}) });
  const runners = await projectAgents({
    assistant,
    models: agentModel ? () => agentModel : models,
    gateway: mcp.gateway,
    secrets,
    ...(modules ? { modules } : {}),
    ...(options.pushKey ? { pushKey: options.pushKey } : {}),
    pushBaseUrl: options.pushBaseUrl,
    logger,
  });
  const actions = projectActions(await loadProjectActions(assistant, modules), {
    assistant,
    secrets,
    logger,
  });
  return {
    dialogue: {
      assistant,
      models: llm ? () => llm : models,
      actions: options.wrapActions ? options.wrapActions(actions) : actions,
      mcp: mcp.flowTools,
      runners,
      random: Math.random,
      logger,
    },
    close: () => mcp.gateway.close(),
  };
}
