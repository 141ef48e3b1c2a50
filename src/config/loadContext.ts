import type * as z from 'zod';
import { DeclaredNames } from './declaredNames.js';
import { renameDeprecatedAliases } from './deprecatedAliases.js';
import { type Diagnostic, type IgnoredKey, type Note, relativeFile } from './diagnostics.js';
import { stripIgnoredKeys } from './ignoredKeys.js';
import { type Environment, interpolate } from './interpolate.js';
import { formatKeyPath, type KeyPath } from './keyPath.js';
import { matchesAny } from './pathPattern.js';
import { readProjectFile } from './projectTree.js';
import { CHANNELS, type FileKind, IGNORED_KEYS, SECRET_KEYS } from './rasaCompat.js';

const isServedChannel = (key: string | number | undefined): boolean =>
  (CHANNELS as readonly unknown[]).includes(key);

/** Keys of served channels' blocks that are noted and not read. */
const UNREAD_CREDENTIALS = IGNORED_KEYS.credentials
  .filter((rule) => rule.unless === undefined)
  .map((rule) => rule.pattern);

import { YamlSource } from './yamlSource.js';
import { zodDiagnostics } from './zodDiagnostics.js';

/** The files whose strings may hold `${VAR}`: configuration, never the assistant's content. */
const INTERPOLATED: ReadonlySet<FileKind> = new Set([
  'config',
  'endpoints',
  'credentials',
  'subAgent',
]);

/** Collects what loading a project finds: errors, notes, and Rasa keys that are ignored. */
export class LoadContext {
  readonly errors: Diagnostic[] = [];
  readonly notes: Note[] = [];
  readonly ignored: IgnoredKey[] = [];
  readonly declared = new DeclaredNames();
  /** Per file, the paths whose `${VAR}` could not be resolved (already reported). */
  private readonly unresolved = new Map<YamlSource, Set<string>>();

  constructor(
    readonly projectDir: string,
    readonly env: Environment,
    readonly requireSecretValues: boolean,
  ) {}

  error(source: YamlSource, path: KeyPath, message: string, anchor: 'key' | 'value' = 'value') {
    this.errors.push(source.diagnostic(path, message, anchor));
  }

  /** Something the user should know, at a key or value of a file that loads. */
  note(source: YamlSource, path: KeyPath, message: string, anchor: 'key' | 'value' = 'value') {
    this.notes.push({ file: source.file, ...source.position(path, anchor), message });
  }

  /** A note about a whole file or folder, placed at its first line. */
  fileNote(file: string, message: string) {
    this.notes.push({ file, line: 1, col: 1, message });
  }

  /** `file:line:col` of a definition, relative to the project, for messages that point to it. */
  where(source: YamlSource, path: KeyPath, anchor: 'key' | 'value' = 'value'): string {
    const { line, col } = source.position(path, anchor);
    return `${relativeFile(source.file, this.projectDir)}:${line}:${col}`;
  }

  /** An error about a whole file, such as a missing one, placed at its first line. */
  fileError(file: string, message: string) {
    this.errors.push({ file, line: 1, col: 1, message });
  }

  /**
   * Reads a YAML file of the given kind: parses it, substitutes `${VAR}` (in configuration
   * files), keeps credentials as references, reads Rasa's deprecated LLM setting names as the
   * current ones and drops ignored Rasa keys. Returns undefined when the file cannot be read.
   */
  async readYaml(
    file: string,
    kind: FileKind,
  ): Promise<{ source: YamlSource; data: unknown } | undefined> {
    let text: string;
    try {
      text = await readProjectFile(file);
    } catch (error) {
      this.fileError(file, `cannot read file: ${(error as Error).message}`);
      return undefined;
    }
    const parsed = YamlSource.parse(file, text);
    if (!parsed.source) {
      this.errors.push(...parsed.errors);
      return undefined;
    }
    const { source } = parsed;
    if (isDanglingLink(source.data)) {
      this.fileError(
        file,
        `the file holds only the path "${source.data}", as a link stored as a text file does, but that path does not exist or its links go round in a circle`,
      );
      return undefined;
    }
    let data = source.data;
    // Domain and flow content is the assistant's own text: in Rasa, `${car_price}` in a response
    // is a dollar sign and a slot, not an environment variable.
    if (INTERPOLATED.has(kind)) {
      const interpolated = interpolate(source, {
        env: this.env,
        secretPaths: SECRET_KEYS[kind],
        requireSecretValues: this.requireSecretValues,
        // The blocks of channels that are not served are notes: their variables need no value.
        ...(kind === 'credentials'
          ? {
              skip: (path: KeyPath) =>
                (path.length === 1 && !isServedChannel(path[0])) ||
                matchesAny(path, UNREAD_CREDENTIALS),
            }
          : {}),
      });
      this.errors.push(...interpolated.errors);
      const renamed = renameDeprecatedAliases(interpolated.data, source, kind);
      this.notes.push(...renamed.notes);
      // A renamed key keeps its unresolved ${VAR}: its error was reported under the old name.
      const unresolved = new Set(interpolated.unresolved.map(formatKeyPath));
      for (const { from, to } of renamed.renamed) {
        if (unresolved.has(formatKeyPath(from))) unresolved.add(formatKeyPath(to));
      }
      this.unresolved.set(source, unresolved);
      data = renamed.data;
    }
    const stripped = stripIgnoredKeys(data, source, IGNORED_KEYS[kind]);
    this.ignored.push(...stripped.ignored);
    this.declared.collect(kind, stripped.data);
    // An empty file is an empty mapping, as in Rasa.
    return { source, data: stripped.data ?? {} };
  }

  /** Parses `data` with `schema`, reporting every issue at its location. */
  parse<T>(
    schema: z.ZodType<T>,
    source: YamlSource,
    data: unknown,
    base: KeyPath = [],
  ): T | undefined {
    const result = schema.safeParse(data);
    if (result.success) return result.data;
    const skip = this.unresolved.get(source) ?? new Set<string>();
    this.errors.push(
      ...zodDiagnostics(result.error, source, data, base, (path) => skip.has(formatKeyPath(path))),
    );
    return undefined;
  }
}

/**
 * A YAML document that is one path and nothing else: a link stored as a text file (git without
 * symlink support) whose target the project tree could not follow.
 */
function isDanglingLink(data: unknown): data is string {
  return typeof data === 'string' && /^[^\s:{}[\],]*[/\\][^\s:{}[\],]*$/.test(data);
}
