import type { CommandGeneratorConfig } from './schemas/assistantConfig.js';
import type { ChannelSettings } from './schemas/credentials.js';
import type { ResponseVariation, SlotDefinition } from './schemas/domain.js';
import type {
  A2AServerConfig,
  ActionEndpointConfig,
  KnowledgeSource,
  McpServerConfig,
  ModelGroup,
  NlgConfig,
} from './schemas/endpoints.js';
import type { FlowDefinition } from './schemas/flows.js';
import type { A2AConfiguration, McpConnection, ReactConfiguration } from './schemas/subAgent.js';
import type { SessionSettings } from './session.js';

/** Where a dotted module path points: a file in the project and one of its exports. */
export interface ModuleLocation {
  readonly modulePath: string;
  readonly file: string;
  readonly exportName: string;
}

/** Where an A2A agent's card comes from: a URL fetched at run time, or a file read now. */
export type AgentCardSource =
  | { readonly kind: 'url'; readonly url: string }
  | {
      readonly kind: 'file';
      readonly file: string;
      readonly card: Readonly<Record<string, unknown>>;
    };

/** The `a2a_server` block of endpoints.yml, with the card file it names read. */
export interface A2AServerSettings extends A2AServerConfig {
  /** The static card (`agent_card_path`): its JSON, checked to have a name. */
  readonly staticCard?: Readonly<Record<string, unknown>>;
}

/** A prompt template file, read and compiled. */
export interface PromptTemplateFile {
  readonly file: string;
  readonly text: string;
}

/** The command generator as configured in config.yml, with its template read. */
export interface CommandGeneratorSettings extends Omit<CommandGeneratorConfig, 'prompt_template'> {
  readonly promptTemplate?: PromptTemplateFile;
}

/**
 * Response rephrasing as endpoints.yml's `nlg` block sets it up (`type: rephrase`, or a Python
 * class whose settings Switchboard's rephraser uses), with its prompt file read.
 */
export interface RephraserSettings extends Omit<NlgConfig, 'type' | 'prompt' | 'prompt_template'> {
  readonly promptTemplate?: PromptTemplateFile;
}

/** An MCP server from endpoints.yml, its `type` taken from the URL when not written. */
export interface McpServer extends McpServerConfig {
  readonly type: 'http' | 'https';
}

interface SubAgentBase {
  readonly name: string;
  readonly description: string;
  /** The agent's folder under the sub-agents directory. */
  readonly dir: string;
}

export interface ReactSubAgent extends SubAgentBase {
  readonly protocol: 'RASA';
  readonly configuration: ReactConfiguration;
  readonly mcpServers: readonly McpConnection[];
  readonly promptTemplate?: PromptTemplateFile;
}

export interface A2ASubAgent extends SubAgentBase {
  readonly protocol: 'A2A';
  readonly configuration: A2AConfiguration;
  readonly agentCard: AgentCardSource;
}

export type SubAgent = ReactSubAgent | A2ASubAgent;

/**
 * A loaded and validated assistant project. Built once per process and deeply frozen; the
 * runtime starts only from it. Credentials appear as `{ secret: NAME }`, never as values.
 */
export interface Assistant {
  readonly projectDir: string;
  readonly commandGenerator: CommandGeneratorSettings;
  readonly mcpServers: Readonly<Record<string, McpServer>>;
  readonly modelGroups: Readonly<Record<string, ModelGroup>>;
  readonly a2aServer?: A2AServerSettings;
  /** The messaging channels of credentials.yml (the REST channel is always served). */
  readonly channels?: ChannelSettings;
  /** Present when endpoints.yml turns response rephrasing on. */
  readonly rephraser?: RephraserSettings;
  readonly slots: Readonly<Record<string, SlotDefinition>>;
  readonly responses: Readonly<Record<string, readonly ResponseVariation[]>>;
  readonly intents: readonly string[];
  /** The domain's `session_config`; absent: Rasa's defaults (`DEFAULT_SESSION`). */
  readonly session?: SessionSettings;
  readonly flows: Readonly<Record<string, FlowDefinition>>;
  readonly agents: Readonly<Record<string, SubAgent>>;
  /** Names of the custom actions: the functions `custom/actions.ts` exports. */
  readonly actions: readonly string[];
  /** Custom actions the domain lists; those not in `actions` run on the action server. */
  readonly domainActions: readonly string[];
  /** Domain actions whose entry asks for the domain (`- action_x: {send_domain: true}`). */
  readonly domainActionsSendingDomain?: readonly string[];
  /** A Rasa action server (`url`) or Rasa's in-process Python module, as endpoints.yml says. */
  readonly actionEndpoint?: ActionEndpointConfig;
  /** What answers `action_trigger_search`: endpoints.yml's `vector_store` of type mcp or agent. */
  readonly knowledge?: KnowledgeSource;
  /** Every TypeScript extension the project names (`module`, `pre_call_hook`), by dotted path. */
  readonly extensions: Readonly<Record<string, ModuleLocation>>;
  /**
   * What the project asks for that Switchboard does not do and no one may miss (PII masking),
   * as `FILE:LINE:COL: message` lines: every start repeats them.
   */
  readonly warnings?: readonly string[];
}

/** A one-line summary of what an assistant holds. */
export function summarize(assistant: Assistant): string {
  const count = (record: object) => Object.keys(record).length;
  return [
    `${count(assistant.flows)} flows`,
    `${count(assistant.slots)} slots`,
    `${count(assistant.responses)} responses`,
    `${count(assistant.agents)} sub agents`,
    `${count(assistant.mcpServers)} MCP servers`,
  ].join(', ');
}

/** Freezes plain data all the way down (functions and class instances are left alone). */
export function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== Array.prototype && proto !== null) return value;
  Object.freeze(value);
  for (const child of Object.values(value)) deepFreeze(child);
  return value;
}
