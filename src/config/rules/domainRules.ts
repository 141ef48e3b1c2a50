import { formatKeyPath } from '../keyPath.js';
import type { LoadContext } from '../loadContext.js';
import type { ProjectIndex } from '../projectIndex.js';
import { checkCondition, checkResponseExists, checkSlotExists } from './conditions.js';
import { slotValueProblem } from './slotValues.js';

/** Rules on slots and responses that need the whole domain. */
export function checkDomain(ctx: LoadContext, index: ProjectIndex): void {
  for (const [name, { value: slot, source, path }] of index.slots) {
    if (slot.type === 'categorical' && (slot.values ?? []).length === 0) {
      ctx.error(
        source,
        path,
        `slot "${name}" is categorical and needs a non-empty "values" list`,
        'key',
      );
    }
    if (slot.type !== 'categorical' && slot.values !== undefined) {
      ctx.error(
        source,
        [...path, 'values'],
        `${formatKeyPath([...path, 'values'])} applies only to categorical slots`,
        'key',
      );
    }
    for (const key of ['min_value', 'max_value'] as const) {
      if (slot.type !== 'float' && slot[key] !== undefined) {
        ctx.error(
          source,
          [...path, key],
          `${formatKeyPath([...path, key])} applies only to float slots`,
          'key',
        );
      }
    }
    const problem = slotValueProblem(slot, slot.initial_value);
    if (problem && (slot.type !== 'categorical' || (slot.values ?? []).length > 0)) {
      ctx.error(
        source,
        [...path, 'initial_value'],
        `${formatKeyPath([...path, 'initial_value'])} ${JSON.stringify(slot.initial_value)}: ${problem}`,
      );
    }
    slot.validation?.rejections.forEach((rejection, i) => {
      const at = [...path, 'validation', 'rejections', i];
      checkCondition(ctx, source, [...at, 'if'], rejection.if);
      checkResponseExists(ctx, source, [...at, 'utter'], rejection.utter);
    });
    if (slot.validation?.refill_utter) {
      checkResponseExists(
        ctx,
        source,
        [...path, 'validation', 'refill_utter'],
        slot.validation.refill_utter,
      );
    }
  }

  for (const [name, { value: variations, source, path }] of index.responses) {
    if (!name.startsWith('utter_')) {
      ctx.error(source, path, `response "${name}" must be named utter_<something>`, 'key');
    }
    variations.forEach((variation, i) => {
      const at = [...path, i, 'condition'];
      const condition = variation.condition;
      if (typeof condition === 'string') {
        checkCondition(ctx, source, at, condition);
      } else if (condition) {
        condition.forEach((check, j) => {
          if (!checkSlotExists(ctx, source, [...at, j, 'name'], check.name)) return;
          const slot = index.slots.get(check.name)?.value;
          const problem = slot && slotValueProblem(slot, check.value);
          if (problem) {
            ctx.error(
              source,
              [...at, j, 'value'],
              `${formatKeyPath([...at, j, 'value'])} ${JSON.stringify(check.value)}: ${problem}`,
            );
          }
        });
      }
    });
  }
}
