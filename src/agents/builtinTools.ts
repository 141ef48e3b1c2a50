import {
  type Condition,
  parseCondition,
  referencedSlots,
  type SlotDefinition,
} from '../assistant/index.js';
import type { ToolDefinition } from '../llm/index.js';

/** The tool a general-purpose agent calls when its task is done. */
export const TASK_COMPLETED = 'task_completed';
/** What the model reads back from `task_completed`. */
export const TASK_COMPLETED_RESULT = 'Task completed';
/** Names of the slot tools of a task-specific agent: `set_slot_<slot>`. */
export const SET_SLOT_PREFIX = 'set_slot_';

/** The default `task_completed` tool: no parameters, strict, with instructions for the closing line. */
export function defaultTaskCompletedTool(): ToolDefinition {
  return {
    type: 'function',
    function: {
      name: TASK_COMPLETED,
      description:
        'Call this once, and only once, when your whole task is done. It takes no arguments. ' +
        'Write your closing message to the user in the same response as this call: a short, ' +
        "natural reply to the user's latest message (acknowledge it, wish them well). Do not " +
        'recap the conversation or what you did, and do not explain your reasoning. A response ' +
        'that holds this call and no text is not valid.',
      parameters: { type: 'object', properties: {}, additionalProperties: false },
      strict: true,
    },
  };
}

/** The system message for the extra call when `task_completed` came without a closing line. */
export function defaultClosingInstruction(): { role: 'system'; content: string } {
  return {
    role: 'system',
    content:
      'Your task is complete. Do not call any tool. Write only a short, natural closing line ' +
      "that answers the user's latest message.",
  };
}

const exitSlotsOf = new Map<string, string[]>();

/**
 * The slots a task-specific agent fills: those its exit conditions read, in order of mention.
 * Kept per list of conditions: they come from the project, and every step asks.
 */
export function exitSlots(exitIf: readonly string[]): readonly string[] {
  const key = JSON.stringify(exitIf);
  const known = exitSlotsOf.get(key);
  if (known) return known;
  const names: string[] = [];
  for (const text of exitIf) {
    let condition: Condition;
    try {
      condition = parseCondition(text);
    } catch {
      continue;
    }
    for (const { name } of referencedSlots(condition)) if (!names.includes(name)) names.push(name);
  }
  exitSlotsOf.set(key, names);
  return names;
}

/** Python's `repr` of a list of strings, as Rasa writes allowed values into descriptions. */
export function pythonList(values: readonly unknown[]): string {
  return `[${values.map((v) => (typeof v === 'string' ? `'${v.replaceAll("'", "\\'")}'` : pyScalar(v))).join(', ')}]`;
}

function pyScalar(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  return String(value);
}

/** The `set_slot_<slot>` tool of one slot: its type, and for a categorical slot its allowed values. */
export function setSlotTool(name: string, slot: SlotDefinition | undefined): ToolDefinition {
  const type = slot?.type ?? 'any';
  const allowed =
    type === 'categorical' && slot?.values ? ` Allowed values: ${pythonList(slot.values)}.` : '';
  return {
    type: 'function',
    function: {
      name: `${SET_SLOT_PREFIX}${name}`,
      description: `Store a value in the slot '${name}' (slot type: ${type}).${allowed}`,
      parameters: {
        type: 'object',
        properties: {
          slot_value: { type: 'string', description: 'The value to store in the slot.' },
        },
        required: ['slot_value'],
        additionalProperties: false,
      },
      strict: true,
    },
  };
}
