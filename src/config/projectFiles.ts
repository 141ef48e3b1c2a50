import path from 'node:path';
import type { ZodType } from 'zod';
import * as z from 'zod';
import {
  A2AAgentFile,
  AgentSection,
  AssistantConfigFile,
  COMMAND_GENERATORS,
  CommandGeneratorConfig,
  CredentialsFile,
  DomainFile,
  EndpointsFile,
  FlowsFile,
  ReactAgentFile,
} from '../assistant/index.js';
import type { KeyPath } from './keyPath.js';
import type { LoadContext } from './loadContext.js';
import type { ProjectPaths } from './projectPaths.js';
import { isDirectory, isFile, subfolders, yamlFilesUnder } from './projectTree.js';
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
  readonly credentials: Located<CredentialsFile> | undefined;
  readonly domains: readonly Located<DomainFile>[];
  readonly flows: readonly Located<FlowsFile>[];
  readonly agents: readonly AgentFile[];
}

export async function readProjectFiles(
  ctx: LoadContext,
  subAgentsDir: string,
  paths: ProjectPaths = {},
): Promise<ProjectFiles> {
  const dir = ctx.projectDir;
  const named = (file: string | undefined) =>
    file === undefined ? undefined : path.resolve(dir, file);
  const config = await readOptional(
    ctx,
    named(paths.config) ?? path.join(dir, 'config.yml'),
    'config',
    AssistantConfigFile,
    paths.config !== undefined,
  );
  if (!config && paths.config === undefined) await noteConfigFolder(ctx);
  const endpoints = await readOptional(
    ctx,
    named(paths.endpoints) ?? path.join(dir, 'endpoints.yml'),
    'endpoints',
    EndpointsFile,
    paths.endpoints !== undefined,
  );
  const credentials = await readOptional(
    ctx,
    named(paths.credentials) ?? path.join(dir, 'credentials.yml'),
    'credentials',
    CredentialsFile,
    paths.credentials !== undefined,
  );
  const [domains, flows, agents] = await Promise.all([
    readDomain(ctx, named(paths.domain)),
    readFlows(
      ctx,
      paths.data?.map((p) => path.resolve(dir, p)),
    ),
    readAgents(ctx, subAgentsDir),
  ]);
  return {
    config,
    commandGenerator: config && readCommandGenerator(ctx, config),
    endpoints,
    credentials,
    domains,
    flows,
    agents,
  };
}

/** Reads a file that may be missing, unless the command line named it. */
async function readOptional<T>(
  ctx: LoadContext,
  file: string,
  kind: FileKind,
  schema: ZodType<T>,
  named: boolean,
): Promise<Located<T> | undefined> {
  if (!(await isFile(file))) {
    if (named) ctx.fileError(file, `there is no file ${path.relative(ctx.projectDir, file)}`);
    return undefined;
  }
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
  config.value.pipeline.forEach((entry, i) => {
    const at: KeyPath = ['pipeline', i];
    let component = entry;
    if (isPythonClass(component.name)) {
      // A project's own command generator is a Python subclass of Rasa's: Switchboard's
      // generator takes its place, with its model and prompt.
      const generator = /CommandGenerator$/.test(component.name);
      ctx.note(
        config.source,
        [...at, 'name'],
        generator
          ? `${component.name} is a Python class, which does not run here: Switchboard generates the commands itself, with this entry's llm and prompt_template`
          : `${component.name} is a Python component, which does not run here`,
      );
      if (!generator) return;
      component = { ...component, name: 'CompactLLMCommandGenerator' };
    }
    if (!names.includes(component.name)) {
      const pos = config.source.position([...at, 'name']);
      ctx.ignored.push({ file: config.source.file, key: component.name, ...pos, nlu: true });
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

async function readDomain(ctx: LoadContext, named?: string): Promise<Located<DomainFile>[]> {
  const files = named === undefined ? await defaultDomainFiles(ctx) : await namedFiles(ctx, named);
  return compact(await Promise.all(files.map((f) => readTyped(ctx, f, 'domain', DomainFile))));
}

async function defaultDomainFiles(ctx: LoadContext): Promise<string[]> {
  const single = path.join(ctx.projectDir, 'domain.yml');
  const folder = path.join(ctx.projectDir, 'domain');
  const [hasSingle, hasFolder] = await Promise.all([isFile(single), isDirectory(folder)]);
  if (hasSingle && hasFolder) {
    ctx.fileError(single, 'both domain.yml and a domain/ folder exist; keep one of them');
  }
  const files = hasFolder ? await yamlFilesUnder(folder) : hasSingle ? [single] : [];
  if (files.length === 0) {
    ctx.fileError(single, 'the project has no domain: add domain.yml or YAML files under domain/');
  }
  return files;
}

/** The YAML files a command-line option names: the file itself, or those under the folder. */
async function namedFiles(ctx: LoadContext, named: string): Promise<string[]> {
  if (await isFile(named)) return [named];
  if (await isDirectory(named)) {
    const files = await yamlFilesUnder(named);
    if (files.length === 0) ctx.fileError(named, 'the folder holds no YAML files');
    return files;
  }
  ctx.fileError(named, `there is no file or folder ${path.relative(ctx.projectDir, named)}`);
  return [];
}

async function readFlows(
  ctx: LoadContext,
  named?: readonly string[],
): Promise<Located<FlowsFile>[]> {
  let files: string[];
  if (named === undefined) {
    const folder = path.join(ctx.projectDir, 'data');
    files = (await isDirectory(folder)) ? await yamlFilesUnder(folder) : [];
  } else {
    files = [...new Set((await Promise.all(named.map((n) => namedFiles(ctx, n)))).flat())];
  }
  return compact(await Promise.all(files.map((f) => readTyped(ctx, f, 'flows', FlowsFile))));
}

async function readAgents(ctx: LoadContext, subAgentsDir: string): Promise<AgentFile[]> {
  const root = path.resolve(ctx.projectDir, subAgentsDir);
  if (!(await isDirectory(root))) return [];
  const entries = await subfolders(root);
  const agents = await Promise.all(
    entries.map(async (name): Promise<AgentFile | undefined> => {
      const dir = path.join(root, name);
      const file = path.join(dir, 'config.yml');
      if (!(await isFile(file))) {
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

/**
 * Some projects keep their configuration in `config/` (Rasa reads it with `--config`): without
 * `config.yml`, say which files are there, as the default command generator runs meanwhile.
 */
async function noteConfigFolder(ctx: LoadContext): Promise<void> {
  const folder = path.join(ctx.projectDir, 'config');
  if (!(await isDirectory(folder))) return;
  const found = await yamlFilesUnder(folder);
  const first = found[0];
  if (first === undefined) return;
  const files = found.map((f) => path.relative(ctx.projectDir, f));
  ctx.fileNote(
    first,
    `there is no config.yml, and ${files.join(', ')} ${files.length === 1 ? 'is' : 'are'} not read: pass --config ${files[0]} to use ${files.length === 1 ? 'it' : 'one'}; until then the default command generator runs`,
  );
}

/** A dotted name such as `custom.my_generator.MyGenerator` names a Python class. */
function isPythonClass(name: string): boolean {
  return name.includes('.');
}

function compact<T>(list: readonly (T | undefined)[]): T[] {
  return list.filter((x): x is T => x !== undefined);
}
