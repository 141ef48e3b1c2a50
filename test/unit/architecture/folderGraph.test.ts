import { readdirSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../../src/', import.meta.url));

/** Every specifier a file imports or re-exports, type-only ones too: they couple folders as well. */
const SPECIFIER =
  /(?:^|[\s;])(?:import|export)\s[^'"]*?\sfrom\s*['"]([^'"]+)['"]|(?:^|[\s;])import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

interface SourceFile {
  /** Path under src/, with forward slashes. */
  readonly name: string;
  /** The top-level folder of src/ the file is in. */
  readonly folder: string;
  readonly local: readonly string[];
  readonly packages: readonly string[];
}

function sourceFiles(): SourceFile[] {
  const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => name.split(path.sep).join('/'));
  return files.map((name) => {
    const text = readFileSync(path.join(SRC, name), 'utf8');
    const local: string[] = [];
    const packages: string[] = [];
    for (const match of text.matchAll(SPECIFIER)) {
      const specifier = match[1] ?? match[2] ?? match[3] ?? '';
      if (!specifier.startsWith('.')) {
        packages.push(specifier);
        continue;
      }
      const target = path.relative(SRC, path.resolve(SRC, path.dirname(name), specifier));
      local.push(target.split(path.sep).join('/').replace(/\.js$/, '.ts'));
    }
    return { name, folder: topFolder(name), local, packages };
  });
}

function topFolder(name: string): string {
  return name.split('/')[0] ?? name;
}

/** Folder → folders it imports, each with one file that shows the import. */
function folderGraph(files: readonly SourceFile[]): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const file of files) {
    const edges = graph.get(file.folder) ?? new Map<string, string>();
    graph.set(file.folder, edges);
    for (const target of file.local) {
      const folder = topFolder(target);
      if (folder !== file.folder && !edges.has(folder)) edges.set(folder, file.name);
    }
  }
  return graph;
}

/** The first cycle found, as the folders along it, the first repeated at the end. */
function findCycle(graph: ReadonlyMap<string, ReadonlyMap<string, string>>): string[] | undefined {
  const done = new Set<string>();
  const visit = (folder: string, trail: string[]): string[] | undefined => {
    const start = trail.indexOf(folder);
    if (start >= 0) return [...trail.slice(start), folder];
    if (done.has(folder)) return undefined;
    for (const next of graph.get(folder)?.keys() ?? []) {
      const cycle = visit(next, [...trail, folder]);
      if (cycle) return cycle;
    }
    done.add(folder);
    return undefined;
  };
  for (const folder of [...graph.keys()].sort()) {
    const cycle = visit(folder, []);
    if (cycle) return cycle;
  }
  return undefined;
}

/** Each step of a cycle with a file that makes it, e.g. `config → dialogue (config/a.ts)`. */
function describeCycle(
  cycle: readonly string[],
  graph: ReadonlyMap<string, ReadonlyMap<string, string>>,
): string {
  return cycle
    .slice(1)
    .map((to, i) => {
      const from = cycle[i] as string;
      return `${from} → ${to} (${graph.get(from)?.get(to)})`;
    })
    .join(', ');
}

/** The imports of files in `folder` that break its rules, as `file: specifier`. */
function forbiddenImports(
  files: readonly SourceFile[],
  folder: string,
  allowedFolders: readonly string[],
  forbiddenPackage: (specifier: string) => boolean,
): string[] {
  return files
    .filter((file) => file.folder === folder)
    .flatMap((file) => [
      ...file.local
        .filter((target) => topFolder(target) !== folder)
        .filter((target) => !allowedFolders.includes(topFolder(target)))
        .map((target) => `${file.name}: src/${target}`),
      ...file.packages.filter(forbiddenPackage).map((specifier) => `${file.name}: ${specifier}`),
    ]);
}

const nodeOrDotenv = (specifier: string) => isBuiltin(specifier) || specifier === 'dotenv';

const files = sourceFiles();
const graph = folderGraph(files);

describe('the folder graph of src', () => {
  it('sees the folders it rules on', () => {
    expect([...graph.keys()]).toEqual(
      expect.arrayContaining(['assistant', 'config', 'dialogue', 'runtime']),
    );
    expect(graph.get('config')?.has('assistant')).toBe(true);
  });

  it('has no cycle between top-level folders', () => {
    const cycle = findCycle(graph);
    expect(cycle && describeCycle(cycle, graph)).toBeUndefined();
  });

  it('keeps the dialogue engine free of I/O, the loader and the outer layers', () => {
    const allowed = [...graph.keys()].filter(
      (folder) => !['adapters', 'runtime', 'channels', 'cli', 'config'].includes(folder),
    );
    expect(forbiddenImports(files, 'dialogue', allowed, nodeOrDotenv)).toEqual([]);
  });

  it('keeps the assistant model a leaf without I/O', () => {
    expect(forbiddenImports(files, 'assistant', [], nodeOrDotenv)).toEqual([]);
  });

  it('reaches neither the loader nor a node module from the dialogue barrel', () => {
    const byName = new Map(files.map((file) => [file.name, file]));
    const reached = new Set<string>();
    const pending = ['dialogue/index.ts'];
    for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
      if (reached.has(name)) continue;
      reached.add(name);
      pending.push(...(byName.get(name)?.local ?? []));
    }
    const offending = [...reached].flatMap((name) => [
      ...(topFolder(name) === 'config' ? [name] : []),
      ...(byName
        .get(name)
        ?.packages.filter(nodeOrDotenv)
        .map((p) => `${name}: ${p}`) ?? []),
    ]);
    expect(offending).toEqual([]);
  });
});
