import { NLU_MAPPING_TYPES } from '../../assistant/index.js';
import { formatKeyPath, type KeyPath } from '../keyPath.js';
import type { LoadContext } from '../loadContext.js';
import type { ProjectIndex } from '../projectIndex.js';
import type { YamlSource } from '../yamlSource.js';
import { checkCondition, checkResponseExists, checkSlotExists } from './conditions.js';
import { slotValueProblem } from './slotValues.js';

/** Rules on slots and responses that need the whole domain. */
export function checkDomain(ctx: LoadContext, index: ProjectIndex): void {
  checkSlotMappings(ctx, index);
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

/**
 * Slot mappings: the flows their conditions name exist; what Switchboard does differently from
 * Rasa is said once. It runs no NLU, so a slot only NLU would fill is filled by the command
 * generator's model instead; and no action runs on every turn to fill a slot.
 */
function checkSlotMappings(ctx: LoadContext, index: ProjectIndex): void {
  let nluOnly: { slots: string[]; source: YamlSource; path: KeyPath } | undefined;
  for (const [name, { value: slot, source, path }] of index.slots) {
    const mappings = slot.mappings ?? [];
    mappings.forEach((mapping, i) => {
      const at = [...path, 'mappings', i];
      mapping.conditions?.forEach((condition, j) => {
        const flow = condition.active_flow;
        if (flow !== undefined && !ctx.declared.flows.has(flow)) {
          const where = [...at, 'conditions', j, 'active_flow'];
          ctx.error(source, where, `${formatKeyPath(where)} "${flow}" is not a flow`);
        }
      });
      const everyTurn = mapping.run_action_every_turn ?? mapping.action;
      if (everyTurn !== undefined) {
        const key =
          mapping.run_action_every_turn !== undefined ? 'run_action_every_turn' : 'action';
        ctx.note(
          source,
          [...at, key],
          `slot "${name}": ${everyTurn} does not run on every turn in Switchboard; the slot is set by the actions flows run, buttons, set_slots steps and sub agents`,
        );
      }
    });
    const types = mappings.map((m) => m.type);
    if (types.length > 0 && types.every((type) => NLU_MAPPING_TYPES.has(type))) {
      nluOnly ??= { slots: [], source, path: [...path, 'mappings'] };
      nluOnly.slots.push(name);
    }
  }
  if (nluOnly) {
    ctx.note(
      nluOnly.source,
      nluOnly.path,
      `Rasa fills ${nluOnly.slots.join(', ')} only through NLU (from_entity, from_intent, from_text); Switchboard runs no NLU, so the command generator's model fills them as it fills from_llm slots`,
      'key',
    );
  }
}
