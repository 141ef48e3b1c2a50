import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { type ZodType, z } from 'zod';
import {
  A2AAgentFile,
  AgentSection,
  AssistantConfigFile,
  COMMAND_GENERATORS,
  CommandGeneratorConfig,
  DomainFile,
  EndpointsFile,
  FlowsFile,
  ReactAgentFile,
} from '../assistant/index.js';
import type { KeyPath } from './keyPath.js';
import type { LoadContext } from './loadContext.js';
import type { FileKind } from './rasaCompat.js';
import { checkExclusiveKeys } from './rules/exclusiveKeys.js';
import type { YamlSource } from './yamlSource.js';

/** A parsed file's value with the source that locates its keys. */
export interface Located<T> {
  readonly source: YamlSource;
  readonly value: T;
}

export interface LocatedCommandGenerator extends Located<CommandGeneratorConfig> {
  readonly path: KeyPath;
}

export type AgentFile =
  | (Located<ReactAgentFile> & { readonly protocol: 'RASA'; readonly dir: string })
  | (Located<A2AAgentFile> & { readonly protocol: 'A2A'; readonly dir: string });

/** Every project file, parsed and checked on its own; cross-file rules come after. */
export interface ProjectFiles {
  readonly config: Located<AssistantConfigFile> | undefined;
  readonly commandGenerator: LocatedCommandGenerator | undefined;
  readonly endpoints: Located<EndpointsFile> | undefined;
  readonly domains: readonly Located<DomainFile>[];
  readonly flows: readonly Located<FlowsFile>[];
  readonly agents: readonly AgentFile[];
}

const YAML_FILE = /\.ya?ml$/i;

export async function readProjectFiles(
  ctx: LoadContext,
  subAgentsDir: string,
): Promise<ProjectFiles> {
  const dir = ctx.projectDir;
  const config = await readOptional(
    ctx,
    path.join(dir, 'config.yml'),
    'config',
    AssistantConfigFile,
  );
  const endpoints = await readOptional(
    ctx,
    path.join(dir, 'endpoints.yml'),
    'endpoints',
    EndpointsFile,
  );
  const [domains, flows, agents] = await Promise.all([
    readDomain(ctx),
    readFlows(ctx),
    readAgents(ctx, subAgentsDir),
  ]);
  return {
    config,
    commandGenerator: config && readCommandGenerator(ctx, config),
    endpoints,
    domains,
    flows,
    agents,
  };
}

async function readOptional<T>(
  ctx: LoadContext,
  file: string,
  kind: FileKind,
  schema: ZodType<T>,
): Promise<Located<T> | undefined> {
  if (!(await exists(file))) return undefined;
  return readTyped(ctx, file, kind, schema);
}

async function readTyped<T>(
  ctx: LoadContext,
  file: string,
  kind: FileKind,
  schema: ZodType<T>,
): Promise<Located<T> | undefined> {
  const raw = await ctx.readYaml(file, kind);
  if (!raw) return undefined;
  checkExclusiveKeys(ctx, raw.source, raw.data, kind);
  const value = ctx.parse(schema, raw.source, raw.data);
  return value === undefined ? undefined : { source: raw.source, value };
}

function readCommandGenerator(
  ctx: LoadContext,
  config: Located<AssistantConfigFile>,
): LocatedCommandGenerator | undefined {
  const names: readonly string[] = COMMAND_GENERATORS;
  let found: LocatedCommandGenerator | undefined;
  config.value.pipeline.forEach((component, i) => {
    const at: KeyPath = ['pipeline', i];
    if (!names.includes(component.name)) {
      const pos = config.source.position([...at, 'name']);
      ctx.ignored.push({ file: config.source.file, key: `pipeline: ${component.name}`, ...pos });
      return;
    }
    if (found) {
      ctx.error(
        config.source,
        [...at, 'name'],
        `pipeline[${i}] is a second command generator (${component.name}); keep one`,
      );
      return;
    }
    const value = ctx.parse(CommandGeneratorConfig, config.source, component, at);
    if (value) found = { source: config.source, value, path: at };
  });
  return found;
}

async function readDomain(ctx: LoadContext): Promise<Located<DomainFile>[]> {
  const single = path.join(ctx.projectDir, 'domain.yml');
  const folder = path.join(ctx.projectDir, 'domain');
  const [hasSingle, hasFolder] = await Promise.all([exists(single), isDirectory(folder)]);
  if (hasSingle && hasFolder) {
    ctx.fileError(single, 'both domain.yml and a domain/ folder exist; keep one of them');
  }
  const files = hasFolder ? await yamlFilesUnder(folder) : hasSingle ? [single] : [];
  if (files.length === 0) {
    ctx.fileError(single, 'the project has no domain: add domain.yml or YAML files under domain/');
  }
  return compact(await Promise.all(files.map((f) => readTyped(ctx, f, 'domain', DomainFile))));
}

async function readFlows(ctx: LoadContext): Promise<Located<FlowsFile>[]> {
  const folder = path.join(ctx.projectDir, 'data');
  const files = (await isDirectory(folder)) ? await yamlFilesUnder(folder) : [];
  return compact(await Promise.all(files.map((f) => readTyped(ctx, f, 'flows', FlowsFile))));
}

async function readAgents(ctx: LoadContext, subAgentsDir: string): Promise<AgentFile[]> {
  const root = path.resolve(ctx.projectDir, subAgentsDir);
  if (!(await isDirectory(root))) return [];
  const entries = (await readdir(root, { withFileTypes: true }))
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const agents = await Promise.all(
    entries.map(async (name): Promise<AgentFile | undefined> => {
      const dir = path.join(root, name);
      const file = path.join(dir, 'config.yml');
      if (!(await exists(file))) {
        ctx.fileError(file, `sub agent folder ${name}/ has no config.yml`);
        return undefined;
      }
      const raw = await ctx.readYaml(file, 'subAgent');
      if (!raw) return undefined;
      checkExclusiveKeys(ctx, raw.source, raw.data, 'subAgent');
      // The protocol decides which keys the rest of the file may have.
      const agentRaw = (raw.data as Record<string, unknown>).agent;
      const section = AgentSection.safeParse(agentRaw);
      const protocol = section.success ? section.data.protocol : undefined;
      if (protocol === 'A2A') {
        const value = ctx.parse(A2AAgentFile, raw.source, raw.data);
        return value && { source: raw.source, value, protocol, dir };
      }
      if (protocol === 'RASA') {
        const value = ctx.parse(ReactAgentFile, raw.source, raw.data);
        return value && { source: raw.source, value, protocol, dir };
      }
      // Without a valid protocol only the agent section can be checked.
      ctx.parse(z.looseObject({ agent: AgentSection }), raw.source, raw.data);
      return undefined;
    }),
  );
  return compact(agents);
}

async function yamlFilesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && YAML_FILE.test(e.name))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

async function exists(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

async function isDirectory(dir: string): Promise<boolean> {
  try {
    return (await stat(dir)).isDirectory();
  } catch {
    return false;
  }
}

function compact<T>(list: readonly (T | undefined)[]): T[] {
  return list.filter((x): x is T => x !== undefined);
}
