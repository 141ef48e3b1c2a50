import { NLU_MAPPING_TYPES, type SlotDefinition } from '../assistant/index.js';

/**
 * Whether the command generator's model may set a slot now, by the slot's mappings as Rasa reads
 * them: a slot without mappings, or with a `from_llm` mapping whose conditions (`active_flow`)
 * hold, is the model's to fill; a `controlled` slot only actions, buttons, `set_slots` steps and
 * sub agents fill. Switchboard runs no NLU, so NLU mappings count as the model's, with their
 * conditions.
 */
export function modelMayFill(
  slot: SlotDefinition | undefined,
  activeFlows: ReadonlySet<string>,
): boolean {
  const mappings = slot?.mappings ?? [];
  if (mappings.length === 0) return true;
  return mappings
    .filter((m) => m.type === 'from_llm' || NLU_MAPPING_TYPES.has(m.type))
    .some(
      (m) =>
        (m.conditions ?? []).length === 0 ||
        (m.conditions ?? []).some(
          (c) => c.active_flow === undefined || activeFlows.has(c.active_flow),
        ),
    );
}
