import type { IgnoredKey } from './diagnostics.js';
import type { KeyPath } from './keyPath.js';
import { matchesAny, type PathPattern } from './pathPattern.js';
import type { YamlSource } from './yamlSource.js';

/**
 * Removes keys that Rasa projects carry but Switchboard does not use, so a Rasa project loads
 * unchanged; each removed key is reported once.
 */
export function stripIgnoredKeys(
  data: unknown,
  source: YamlSource,
  patterns: readonly PathPattern[],
): { data: unknown; ignored: IgnoredKey[] } {
  const ignored: IgnoredKey[] = [];
  const visit = (value: unknown, path: KeyPath): unknown => {
    if (Array.isArray(value)) return value.map((item, i) => visit(item, [...path, i]));
    if (value === null || typeof value !== 'object') return value;
    const kept: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      const childPath = [...path, key];
      if (matchesAny(childPath, patterns)) {
        ignored.push({ file: source.file, key: key, ...source.position(childPath, 'key') });
      } else {
        kept[key] = visit(child, childPath);
      }
    }
    return kept;
  };
  return { data: visit(data, []), ignored };
}
