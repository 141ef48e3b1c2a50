import path from 'node:path';
import type { ModuleLocation } from '../assistant/index.js';
import {
  type A2AServerSettings,
  type Assistant,
  type ChannelSettings,
  CommandGeneratorConfig,
  type CommandGeneratorSettings,
  type CredentialsFile,
  deepFreeze,
  type McpServer,
  type PromptTemplateFile,
  type RephraserSettings,
  type SubAgent,
  sessionSettings,
} from '../assistant/index.js';
import {
  type Diagnostic,
  formatDiagnostic,
  type IgnoredKey,
  type Note,
  relativeFile,
  sortDiagnostics,
} from './diagnostics.js';
import { projectEnvironment } from './env.js';
import type { Environment } from './interpolate.js';
import { LoadContext } from './loadContext.js';
import { type ProjectFiles, readProjectFiles } from './projectFiles.js';
import { indexProject, type ProjectIndex } from './projectIndex.js';
import type { ProjectPaths } from './projectPaths.js';
import { checkA2AServer } from './rules/a2aServerRules.js';
import { notePythonActions } from './rules/actionSources.js';
import { type AgentResources, checkAgents } from './rules/agentRules.js';
import { checkChannels } from './rules/channelRules.js';
import { readCustomActions } from './rules/customActions.js';
import { checkDomain } from './rules/domainRules.js';
import { checkEndpoints } from './rules/endpointRules.js';
import { checkFlows } from './rules/flowRules.js';
import { checkKnowledge } from './rules/knowledgeRules.js';
import { checkNlg, checkRephraseMetadata } from './rules/nlgRules.js';
import { checkModelGroup, readPromptTemplate } from './rules/references.js';

export interface LoadOptions {
  /** The assistant project directory. */
  readonly projectDir: string;
  /** Sub-agent folder, relative to the project (default `sub_agents`). */
  readonly subAgentsDir?: string;
  /** Files kept elsewhere than Rasa's default places (Rasa's `--config`, `--domain`, …). */
  readonly paths?: ProjectPaths;
  /** The environment for `${VAR}`; default: the process environment over the project's `.env`. */
  readonly env?: Environment;
  /**
   * Whether variables behind credential keys must be set now. True locally; false where a
   * secret store resolves them at call time.
   */
  readonly requireSecretValues?: boolean;
}

/** What loading found besides errors: keys that are not used, notes and warnings; sorted. */
interface LoadFindings {
  readonly ignored: readonly IgnoredKey[];
  readonly notes: readonly Note[];
  /** What the project asks for that Switchboard does not do and no one may miss (privacy). */
  readonly warnings: readonly Note[];
}

export type LoadResult =
  | ({ readonly ok: true; readonly assistant: Assistant } & LoadFindings)
  | ({ readonly ok: false; readonly errors: readonly Diagnostic[] } & LoadFindings);

/** Loads and validates an assistant project, reporting every error found at once. */
export async function loadAssistant(options: LoadOptions): Promise<LoadResult> {
  const projectDir = path.resolve(options.projectDir);
  const env = options.env ?? (await projectEnvironment(projectDir));
  const ctx = new LoadContext(projectDir, env, options.requireSecretValues ?? true);
  const files = await readProjectFiles(ctx, options.subAgentsDir ?? 'sub_agents', options.paths);
  const index = indexProject(ctx, files);
  const extensions = new Map<string, ModuleLocation>();

  const actions = await readCustomActions(ctx, extensions);
  checkDomain(ctx, index);
  notePythonActions(ctx, index, checkFlows(ctx, index));
  checkRephraseMetadata(ctx, index);
  checkChannels(ctx, files);
  const [, , resources, commandTemplate, rephraser, a2aServer] = await Promise.all([
    checkEndpoints(ctx, index, extensions),
    checkKnowledge(ctx, files, index),
    checkAgents(ctx, index, extensions),
    checkCommandGenerator(ctx, files),
    checkNlg(ctx, files),
    checkA2AServer(ctx, files),
  ]);

  const findings = loadFindings(ctx);
  if (ctx.errors.length > 0) {
    return { ok: false, errors: sortDiagnostics(ctx.errors), ...findings };
  }
  const assistant = buildAssistant(projectDir, files, index, {
    resources,
    commandTemplate,
    rephraser,
    a2aServer,
    extensions,
    actions: [...actions.keys()],
    warnings: findings.warnings.map((w) => formatDiagnostic(w, projectDir)),
  });
  return { ok: true, assistant: deepFreeze(assistant), ...findings };
}

async function checkCommandGenerator(
  ctx: LoadContext,
  files: ProjectFiles,
): Promise<PromptTemplateFile | undefined> {
  const generator = files.commandGenerator;
  if (!generator) return undefined;
  checkModelGroup(ctx, generator.source, [...generator.path, 'llm'], generator.value.llm);
  const template = generator.value.prompt_template;
  if (!template) return undefined;
  return readPromptTemplate(
    ctx,
    generator.source,
    [...generator.path, 'prompt_template'],
    template,
  );
}

function buildAssistant(
  projectDir: string,
  files: ProjectFiles,
  index: ProjectIndex,
  found: {
    readonly resources: ReadonlyMap<string, AgentResources>;
    readonly commandTemplate: PromptTemplateFile | undefined;
    readonly rephraser: RephraserSettings | undefined;
    readonly a2aServer: A2AServerSettings | undefined;
    readonly extensions: ReadonlyMap<string, ModuleLocation>;
    readonly actions: readonly string[];
    readonly warnings: readonly string[];
  },
): Assistant {
  const { resources, commandTemplate, rephraser, a2aServer, extensions } = found;
  const { prompt_template: _template, ...generator } =
    files.commandGenerator?.value ??
    CommandGeneratorConfig.parse({ name: 'CompactLLMCommandGenerator' });
  const commandGenerator: CommandGeneratorSettings = commandTemplate
    ? { ...generator, promptTemplate: commandTemplate }
    : generator;

  const mcpServers: Record<string, McpServer> = {};
  for (const [name, { value }] of index.servers) {
    const type = value.type ?? (new URL(value.url).protocol === 'https:' ? 'https' : 'http');
    mcpServers[name] = { ...value, type };
  }

  const agents: Record<string, SubAgent> = {};
  for (const [name, file] of index.agents) {
    const base = { name, description: file.value.agent.description, dir: file.dir };
    const found = resources.get(name) ?? {};
    if (file.protocol === 'RASA') {
      agents[name] = {
        ...base,
        protocol: 'RASA',
        configuration: file.value.configuration,
        mcpServers: file.value.connections.mcp_servers,
        ...(found.promptTemplate ? { promptTemplate: found.promptTemplate } : {}),
      };
    } else if (found.agentCard) {
      agents[name] = {
        ...base,
        protocol: 'A2A',
        configuration: file.value.configuration,
        agentCard: found.agentCard,
      };
    }
  }

  const { rest: _rest, ...channels } = files.credentials?.value ?? {};
  const actionEndpoint = files.endpoints?.value.action_endpoint;
  const store = files.endpoints?.value.vector_store;
  const knowledge = store && store.type !== 'rasa' ? store : undefined;
  return {
    projectDir,
    commandGenerator,
    mcpServers,
    modelGroups: Object.fromEntries([...index.modelGroups].map(([id, g]) => [id, g.value])),
    ...(a2aServer ? { a2aServer } : {}),
    ...(Object.keys(channels).length > 0 ? { channels: channelSettings(channels) } : {}),
    ...(actionEndpoint ? { actionEndpoint } : {}),
    ...(knowledge ? { knowledge } : {}),
    ...(rephraser ? { rephraser } : {}),
    slots: Object.fromEntries([...index.slots].map(([name, s]) => [name, s.value])),
    responses: Object.fromEntries([...index.responses].map(([name, r]) => [name, r.value])),
    intents: [...index.intents],
    session: sessionSettings(index.sessionConfig?.value),
    flows: Object.fromEntries([...index.flows].map(([id, f]) => [id, f.value])),
    agents,
    actions: found.actions,
    domainActions: [...index.domainActions.keys()],
    domainActionsSendingDomain: [...index.domainActionsSendingDomain],
    extensions: Object.fromEntries(extensions),
    ...(found.warnings.length > 0 ? { warnings: found.warnings } : {}),
  };
}

/**
 * The ignored keys and notes to report, sorted: keys with a reason become notes, and the NLU
 * family becomes one note naming its files.
 */
function loadFindings(ctx: LoadContext): LoadFindings {
  const ignored = dedupe(ctx.ignored, (key) => `${key.file}\0${key.key}`);
  const notes = [...ctx.notes];
  const warnings: Note[] = [];
  for (const key of ignored) {
    if (key.reason === undefined) continue;
    (key.warning ? warnings : notes).push({ ...key, message: `${key.key}: ${key.reason}` });
  }
  const nlu = sortDiagnostics(ignored.filter((key) => key.nlu));
  const first = nlu[0];
  if (first) {
    const files = [...new Set(nlu.map((key) => relativeFile(key.file, ctx.projectDir)))];
    const unique = (list: string[]) => [...new Set(list)].join(', ');
    const sections = nlu.filter((key) => NLU_SECTIONS.has(key.key)).map((key) => key.key);
    const components = nlu.filter((key) => !NLU_SECTIONS.has(key.key)).map((key) => key.key);
    const parts = [
      ...(components.length > 0 ? [`the pipeline components ${unique(components)}`] : []),
      ...(sections.length > 0 ? [`${unique(sections)} data`] : []),
    ];
    notes.push({
      file: first.file,
      line: first.line,
      col: first.col,
      message: `Switchboard runs CALM flows, not Rasa's NLU: ${parts.join(' and ')} are not used (${files.join(', ')})`,
    });
  }
  return {
    ignored: sortDiagnostics(ignored.filter((key) => key.reason === undefined && !key.nlu)),
    notes: sortDiagnostics(dedupe(notes, (note) => `${note.file}\0${note.message}`)),
    warnings: sortDiagnostics(warnings),
  };
}

/** The sections of Rasa files that hold NLU data; other NLU keys are pipeline components. */
const NLU_SECTIONS: ReadonlySet<string> = new Set(['nlu', 'stories', 'rules', 'forms', 'entities']);

/**
 * Each item once by its `identity`: a rule may find the same note from two places, and a file
 * names an ignored key once.
 */
function dedupe<T>(list: readonly T[], identity: (item: T) => string): T[] {
  const seen = new Set<string>();
  return list.filter((item) => {
    const id = identity(item);
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/** The channels as the runtime takes them: `socketio:` with no settings is the channel's defaults. */
function channelSettings(file: Omit<CredentialsFile, 'rest'>): ChannelSettings {
  const { socketio, ...rest } = file;
  return { ...rest, ...(socketio !== undefined ? { socketio: socketio ?? {} } : {}) };
}
