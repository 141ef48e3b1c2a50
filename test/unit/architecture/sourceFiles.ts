import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const SRC = fileURLToPath(new URL('../../../src/', import.meta.url));

/** Every specifier a file imports or re-exports, type-only ones too: they couple folders as well. */
const SPECIFIER =
  /(?:^|[\s;])(?:import|export)\s[^'"]*?\sfrom\s*['"]([^'"]+)['"]|(?:^|[\s;])import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

export interface SourceFile {
  /** Path under src/, with forward slashes. */
  readonly name: string;
  /** The top-level folder of src/ the file is in. */
  readonly folder: string;
  readonly local: readonly string[];
  readonly packages: readonly string[];
  /** How many lines the file has. */
  readonly lines: number;
}

export function sourceFiles(): SourceFile[] {
  const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    // Generated sources (`npm run generate`) are not ours to shape.
    .filter((name) => name.endsWith('.ts') && !name.includes('.generated.'))
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
    return { name, folder: topFolder(name), local, packages, lines: text.split('\n').length - 1 };
  });
}

export function topFolder(name: string): string {
  return name.split('/')[0] ?? name;
}

/** The first cycle found, as the nodes along it, the first repeated at the end. */
export function findCycle(
  graph: ReadonlyMap<string, ReadonlyMap<string, string>>,
): string[] | undefined {
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
export function describeCycle(
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
