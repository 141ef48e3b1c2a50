import type { SlotDefinition } from '../../assistant/index.js';

/** Why `value` cannot be stored in a slot of this definition, or undefined when it can. */
export function slotValueProblem(slot: SlotDefinition, value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  switch (slot.type) {
    case 'text':
      return typeof value === 'string' ? undefined : 'a text slot takes a string';
    case 'bool':
      return typeof value === 'boolean' ? undefined : 'a bool slot takes true or false';
    case 'float':
      if (typeof value !== 'number') return 'a float slot takes a number';
      if (slot.min_value !== undefined && value < slot.min_value)
        return `is below min_value ${slot.min_value}`;
      if (slot.max_value !== undefined && value > slot.max_value)
        return `is above max_value ${slot.max_value}`;
      return undefined;
    case 'categorical': {
      const allowed = slot.values ?? [];
      const match = allowed.some((v) => String(v).toLowerCase() === String(value).toLowerCase());
      return match ? undefined : `is not one of the slot's values: ${allowed.join(', ')}`;
    }
    case 'list':
      return Array.isArray(value) ? undefined : 'a list slot takes a list';
    case 'any':
      return undefined;
  }
}
