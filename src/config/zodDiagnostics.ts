import { closest, distance } from 'fastest-levenshtein';
import type * as z from 'zod';
import { knownKeysOf, unknownKeyHint } from '../assistant/index.js';
import type { Diagnostic } from './diagnostics.js';
import { formatKeyPath, type KeyPath, valueAt } from './keyPath.js';
import type { YamlSource } from './yamlSource.js';

/** Suggests the closest known name when it is plausibly a typo. */
export function didYouMean(word: string, candidates: readonly string[]): string {
  if (candidates.length === 0) return '';
  const best = closest(word, [...candidates]);
  const limit = Math.max(2, Math.floor(best.length / 4));
  return distance(word, best) <= limit ? ` (did you mean "${best}"?)` : '';
}

/** Turns zod issues into located diagnostics, reading `input` to tell missing keys apart. */
export function zodDiagnostics(
  error: z.ZodError,
  source: YamlSource,
  input: unknown,
  base: KeyPath = [],
  skip: (path: KeyPath) => boolean = () => false,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const issue of error.issues) {
    // Keys starting with "~" are what a schema adds while parsing (a flow step's kind while zod
    // picks its schema); users never wrote them.
    const own = (issue.path as (string | number)[]).filter(
      (s) => typeof s !== 'string' || !s.startsWith('~'),
    );
    const path: KeyPath = [...base, ...own];
    if (skip(path)) continue;
    out.push(...issueDiagnostics(issue, path, source, valueAt(input, own)));
  }
  return out;
}

function issueDiagnostics(
  issue: z.core.$ZodIssue,
  path: KeyPath,
  source: YamlSource,
  value: unknown,
): Diagnostic[] {
  const where = formatKeyPath(path);
  switch (issue.code) {
    case 'unrecognized_keys': {
      const known = knownKeysOf(issue.message);
      const owner = path.length === 0 ? 'at the top level' : `in ${where}`;
      return issue.keys.map((key) => {
        const hint = unknownKeyHint(issue.message, key);
        const message = hint
          ? `unknown key "${key}" ${owner}: ${hint}`
          : `unknown key "${key}" ${owner}${didYouMean(key, known)}; allowed: ${known.join(', ')}`;
        return source.diagnostic([...path, key], message, 'key');
      });
    }
    case 'invalid_type': {
      if (value === undefined) {
        const parent = path.slice(0, -1);
        const key = path[path.length - 1];
        const owner = parent.length === 0 ? 'the file' : formatKeyPath(parent);
        return [source.diagnostic(parent, `${owner} is missing the required key "${String(key)}"`)];
      }
      return [
        source.diagnostic(
          path,
          `${where} must be ${article(issue.expected)} (got ${describe(value)})`,
        ),
      ];
    }
    case 'invalid_value':
      return [
        source.diagnostic(
          path,
          `${where} ${JSON.stringify(value)} is not one of: ${issue.values.map((v) => String(v)).join(', ')}`,
        ),
      ];
    case 'invalid_union': {
      if (issue.message.startsWith('Invalid') && issue.errors.length > 0) {
        return [source.diagnostic(path, `${where} has an invalid shape (got ${describe(value)})`)];
      }
      return [source.diagnostic(path, `${where}: ${issue.message}`)];
    }
    case 'too_small':
    case 'too_big':
    case 'invalid_format':
    case 'not_multiple_of':
    case 'invalid_key':
    case 'invalid_element':
    case 'custom':
      return [source.diagnostic(path, `${where} ${issue.message}`)];
  }
}

function article(expected: string): string {
  const names: Record<string, string> = {
    string: 'a string',
    number: 'a number',
    boolean: 'true or false',
    array: 'a list',
    object: 'a mapping',
    record: 'a mapping',
    int: 'an integer',
  };
  return names[expected] ?? expected;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  return `${typeof value} ${JSON.stringify(value)}`;
}
