import type { IgnoredKey } from './diagnostics.js';
import type { KeyPath } from './keyPath.js';
import { matches } from './pathPattern.js';
import type { IgnoredKeyRule } from './rasaCompat.js';
import type { YamlSource } from './yamlSource.js';

/**
 * Removes keys that Rasa projects carry but Switchboard does not use, so a Rasa project loads
 * unchanged; each removed key is reported with what its rule says of it.
 */
export function stripIgnoredKeys(
  data: unknown,
  source: YamlSource,
  rules: readonly IgnoredKeyRule[],
): { data: unknown; ignored: IgnoredKey[] } {
  const ignored: IgnoredKey[] = [];
  const visit = (value: unknown, path: KeyPath): unknown => {
    if (Array.isArray(value)) return value.map((item, i) => visit(item, [...path, i]));
    if (value === null || typeof value !== 'object') return value;
    const kept: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      const childPath = [...path, key];
      const rule = rules.find(
        (r) =>
          matches(childPath, r.pattern) &&
          (r.besides === undefined || r.besides in value) &&
          !r.unless?.includes(key),
      );
      if (rule?.silent) continue;
      if (rule) {
        ignored.push({
          file: source.file,
          key,
          ...source.position(childPath, 'key'),
          ...(rule.reason !== undefined ? { reason: rule.reason } : {}),
          ...(rule.nlu ? { nlu: true } : {}),
          ...(rule.warning ? { warning: true } : {}),
        });
      } else {
        kept[key] = visit(child, childPath);
      }
    }
    return kept;
  };
  return { data: visit(data, []), ignored };
}
