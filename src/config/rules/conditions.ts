import {
  type Condition,
  ConditionSyntaxError,
  parseCondition,
  referencedSlots,
} from '../../assistant/index.js';
import { formatKeyPath, type KeyPath } from '../keyPath.js';
import type { LoadContext } from '../loadContext.js';
import type { YamlSource } from '../yamlSource.js';
import { didYouMean } from '../zodDiagnostics.js';

/**
 * Parses the condition at `path` and checks that every slot it reads exists. Errors point at the
 * offending character when the condition is written on one line.
 */
export function checkCondition(
  ctx: LoadContext,
  source: YamlSource,
  path: KeyPath,
  text: string,
): Condition | undefined {
  let condition: Condition;
  try {
    condition = parseCondition(text);
  } catch (error) {
    if (!(error instanceof ConditionSyntaxError)) throw error;
    ctx.errors.push({
      file: source.file,
      ...source.positionInValue(path, error.offset),
      message: `${formatKeyPath(path)}: ${error.message}`,
    });
    return undefined;
  }
  for (const slot of referencedSlots(condition)) {
    if (ctx.declared.slots.has(slot.name)) continue;
    ctx.errors.push({
      file: source.file,
      ...source.positionInValue(path, slot.offset),
      message: `${formatKeyPath(path)} reads slot "${slot.name}", which the domain does not define${didYouMean(slot.name, [...ctx.declared.slots])}`,
    });
  }
  return condition;
}

/** Reports a slot name that the domain does not define; true when the slot exists. */
export function checkSlotExists(
  ctx: LoadContext,
  source: YamlSource,
  path: KeyPath,
  name: string,
  anchor: 'key' | 'value' = 'value',
): boolean {
  if (ctx.declared.slots.has(name)) return true;
  ctx.error(
    source,
    path,
    `${formatKeyPath(path)} names slot "${name}", which the domain does not define${didYouMean(name, [...ctx.declared.slots])}`,
    anchor,
  );
  return false;
}

/** Reports a response name that the domain does not define. */
export function checkResponseExists(
  ctx: LoadContext,
  source: YamlSource,
  path: KeyPath,
  name: string,
): boolean {
  if (ctx.declared.responses.has(name)) return true;
  ctx.error(
    source,
    path,
    `${formatKeyPath(path)} names response "${name}", which the domain does not define${didYouMean(name, [...ctx.declared.responses])}`,
  );
  return false;
}
