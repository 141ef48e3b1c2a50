import type { KeyPath } from './keyPath.js';

/**
 * A key path pattern written as `a.*.b`: `*` matches any one key or index, `**` any number
 * (including none) of keys and indexes.
 */
export type PathPattern = readonly string[];

export function pattern(text: string): PathPattern {
  return text.split('.');
}

export function matches(path: KeyPath, p: PathPattern, i = 0, j = 0): boolean {
  if (j === p.length) return i === path.length;
  const seg = p[j];
  if (seg === '**') {
    for (let k = i; k <= path.length; k++) if (matches(path, p, k, j + 1)) return true;
    return false;
  }
  if (i === path.length) return false;
  return (seg === '*' || seg === String(path[i])) && matches(path, p, i + 1, j + 1);
}

export function matchesAny(path: KeyPath, patterns: readonly PathPattern[]): boolean {
  return patterns.some((p) => matches(path, p));
}
