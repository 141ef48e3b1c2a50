import { isBuiltin } from 'node:module';
import { describe, expect, it } from 'vitest';
import {
  describeCycle,
  findCycle,
  type SourceFile,
  sourceFiles,
  topFolder,
} from './sourceFiles.js';

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

  it('keeps the resilience module a leaf that every folder may use, without I/O', () => {
    expect(graph.has('resilience')).toBe(true);
    expect(forbiddenImports(files, 'resilience', [], nodeOrDotenv)).toEqual([]);
  });

  it('keeps the assistant model a leaf without I/O', () => {
    expect(forbiddenImports(files, 'assistant', ['resilience'], nodeOrDotenv)).toEqual([]);
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
