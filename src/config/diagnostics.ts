import path from 'node:path';

/** One located problem in an assistant project. `file` is absolute; line and col are 1-based. */
export interface Diagnostic {
  readonly file: string;
  readonly line: number;
  readonly col: number;
  readonly message: string;
}

/** A key Switchboard accepts for Rasa compatibility but does not use. */
export interface IgnoredKey {
  readonly file: string;
  readonly key: string;
  readonly line: number;
  readonly col: number;
  /** Why it matters that the key is not used; such keys are reported as notes of their own. */
  readonly reason?: string;
  /** One of Rasa's NLU keys (NLU data, stories, rules, forms), reported together once. */
  readonly nlu?: boolean;
  /** Its reason is a warning, repeated on every start, not a note. */
  readonly warning?: boolean;
}

/**
 * Something a user should know about a project that loads: what of it will not run here, and
 * what to do instead. Located like a diagnostic.
 */
export interface Note {
  readonly file: string;
  readonly line: number;
  readonly col: number;
  readonly message: string;
}

/** Formats a diagnostic as `FILE:LINE:COL: message`, FILE relative to `base`. */
export function formatDiagnostic(d: Diagnostic, base: string = process.cwd()): string {
  return `${relativeFile(d.file, base)}:${d.line}:${d.col}: ${d.message}`;
}

export function relativeFile(file: string, base: string): string {
  const rel = path.relative(base, file);
  return rel.startsWith('..') || path.isAbsolute(rel) ? file : rel;
}

/**
 * Sorts located items by file, then position, so output is the same on every run (files are
 * read in parallel); items at one position keep the order the rules found them in.
 */
export function sortDiagnostics<T extends Diagnostic | IgnoredKey>(list: readonly T[]): T[] {
  return [...list].sort((a, b) => compareText(a.file, b.file) || a.line - b.line || a.col - b.col);
}

/** Code-point order: unlike localeCompare, the same on every machine and locale. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Thrown when a project does not load; carries every diagnostic found. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(
    readonly diagnostics: readonly Diagnostic[],
    readonly projectDir: string,
  ) {
    super(
      `the assistant project has ${diagnostics.length} error(s):\n${diagnostics
        .map((d) => formatDiagnostic(d, projectDir))
        .join('\n')}`,
    );
  }
}
