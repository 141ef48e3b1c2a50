/** What a ReAct run keeps between its steps, and the bounds that keep a run from running away. */
import * as z from 'zod';
import { AgentInput, AgentSlotEvent } from '../assistant/index.js';
import { ToolCall, ToolChatMessage } from '../llm/index.js';

/** Model calls one run may make before it is stopped as a runaway loop. */
export const MAX_MODEL_CALLS = 30;
/** Bytes a run's data may take in its record (a store item holds 400 KB); see `fitRecord`. */
export const MAX_RUN_BYTES = 300_000;
/** What replaces a tool result left out to keep a run's record small. */
export const OMITTED_RESULT = '[this earlier tool result was left out to keep the run small]';

const ToolResultRecord = z.object({
  callId: z.string(),
  toolName: z.string(),
  isError: z.boolean(),
});

/** A ReAct run's data between its steps (stored in the run's record). */
export const ReactRunData = z.object({
  agentId: z.string(),
  input: AgentInput,
  /** Whether `processInput` has run on `input`. */
  inputReady: z.boolean(),
  exitIf: z.array(z.string()).optional(),
  resumed: z.boolean(),
  restarted: z.boolean(),
  /** When the run was started (ms since the epoch): `configuration.timeout` counts from it. */
  startedAt: z.number().optional(),
  modelCalls: z.number().int().min(0),
  /** The run's own messages after the system prompt and the history: answers and tool results. */
  messages: z.array(ToolChatMessage),
  /** Tool calls the next step runs. */
  pending: z.array(ToolCall).optional(),
  /** The closing line that came with `task_completed` ('' for none), once it was called. */
  completedWith: z.string().optional(),
  /** Whether the next step is the closing call `task_completed` without text needs. */
  closing: z.boolean().optional(),
  /** The slot events of the run so far, one per slot (returned with the output). */
  events: z.array(AgentSlotEvent),
  results: z.array(ToolResultRecord),
});
export type ReactRunData = z.infer<typeof ReactRunData>;

/** The slots as a run sees them: its input's, then those the run set. */
export function runScope(data: ReactRunData): Record<string, unknown> {
  const slots: Record<string, unknown> = {};
  for (const slot of data.input.slots) slots[slot.name] = slot.value;
  for (const event of data.events) slots[event.name] = event.value;
  return slots;
}
