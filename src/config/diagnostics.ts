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
}

/** Formats a diagnostic as `FILE:LINE:COL: message`, FILE relative to `base`. */
export function formatDiagnostic(d: Diagnostic, base: string = process.cwd()): string {
  return `${relativeFile(d.file, base)}:${d.line}:${d.col}: ${d.message}`;
}

export function relativeFile(file: string, base: string): string {
  const rel = path.relative(base, file);
  return rel.startsWith('..') || path.isAbsolute(rel) ? file : rel;
}

/** Sorts diagnostics by file, then position, so output is stable. */
export function sortDiagnostics(list: readonly Diagnostic[]): Diagnostic[] {
  return [...list].sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.col - b.col);
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
