/**
 * How a turn's committed batches change its task. A batch of the task's current turn, newer than
 * the last one folded in, is folded once: an unsettled batch keeps the task `working` (its
 * messages, the sub agents' fillers, as a status update); a settled one ends the turn with the
 * state the conversation is in (see the module's header in `index.ts`). A task that is over takes
 * no more changes.
 */
import type { Artifact, Message, Part } from '@a2a-js/sdk';
import { BUILTIN_SLOTS, isPatternId, PATTERN } from '../assistant/index.js';
import type { ConversationState, DialogueEvent } from '../dialogue/index.js';
import type { ReplyBatch } from '../runtime/index.js';
import { artifactJson, type TaskRecord, type TaskStateName, TERMINAL } from './record.js';
import { agentMessage, part, withState } from './updates.js';

/** Characters of one text part kept in a task; longer texts are cut. */
export const PART_TEXT_LIMIT = 4000;
/** Patterns that are no repair: they close or open a conversation's business. */
const NOT_REPAIR: ReadonlySet<string> = new Set([PATTERN.completed, PATTERN.sessionStart]);

export interface FoldOptions {
  /** `a2a_server.include_conversation_repair`. */
  readonly repairWaitsForInput: boolean;
  readonly now: number;
}

/** The task after the batch, or undefined when the batch changes nothing (or was folded). */
export function foldBatch(
  record: TaskRecord,
  batch: ReplyBatch,
  options: FoldOptions,
): TaskRecord | undefined {
  if (batch.turnId !== record.turn.id || batch.version <= record.turn.version) return undefined;
  if (TERMINAL.has(record.state)) return undefined;
  const events = (batch.events ?? []).map((e) => e.event);
  const parts = batch.messages.flatMap(({ message }) => partsOf(message));
  const message =
    parts.length > 0 ? agentMessage(record, `${batch.jobId}@${batch.version}`, parts) : undefined;
  const state: TaskStateName = batch.settled
    ? settledState(batch.state, events, options.repairWaitsForInput)
    : 'TASK_STATE_WORKING';
  const folded: TaskRecord = {
    ...record,
    slots: { ...record.slots, ...slotsSet(events) },
    turn: { id: record.turn.id, version: batch.version, settled: batch.settled },
  };
  if (state === record.state && !message) return { ...folded, version: record.version + 1 };
  const artifacts = state === 'TASK_STATE_COMPLETED' ? artifactsOf(folded, message) : [];
  const next = withState(folded, state, options.now, message, artifacts);
  return artifacts.length > 0 ? { ...next, artifacts: artifacts.map(artifactJson) } : next;
}

/**
 * The state a settled turn leaves its task in: failed when the internal-error pattern ran; waiting
 * for input while a flow (or an agent) is on the stack; completed when a flow of the task ended;
 * a turn that only repaired the conversation waits for input, or completes when repair turns are
 * not reported.
 */
function settledState(
  state: ConversationState | undefined,
  events: readonly DialogueEvent[],
  repairWaitsForInput: boolean,
): TaskStateName {
  const started = events.flatMap((e) => (e.event === 'flow_started' ? [e.flow_id] : []));
  if (started.includes(PATTERN.internalError)) return 'TASK_STATE_FAILED';
  if (state?.stack.some((f) => f.type === 'flow' || f.type === 'agent')) {
    return 'TASK_STATE_INPUT_REQUIRED';
  }
  const flowEnded = events.some((e) => e.event === 'flow_completed' && !isPatternId(e.flow_id));
  const repaired = started.some((id) => isPatternId(id) && !NOT_REPAIR.has(id));
  return repaired && !flowEnded && repairWaitsForInput
    ? 'TASK_STATE_INPUT_REQUIRED'
    : 'TASK_STATE_COMPLETED';
}

/** Slot values the events set, but the built-in slots and the resets of a flow's end. */
function slotsSet(events: readonly DialogueEvent[]): Record<string, unknown> {
  const slots: Record<string, unknown> = {};
  for (const event of events) {
    if (event.event !== 'slot' || event.name in BUILTIN_SLOTS) continue;
    if (event.value === null || event.value === undefined) continue;
    slots[event.name] = event.value;
  }
  return slots;
}

function partsOf(message: ReplyBatch['messages'][number]['message']): Part[] {
  const parts: Part[] = [];
  if (message.text !== undefined && message.text !== '') {
    parts.push(part({ $case: 'text', value: message.text.slice(0, PART_TEXT_LIMIT) }));
  }
  if (message.image !== undefined) parts.push(part({ $case: 'url', value: message.image }));
  const data = {
    ...(message.buttons ? { buttons: message.buttons } : {}),
    ...(message.custom !== undefined ? { custom: message.custom } : {}),
  };
  if (Object.keys(data).length > 0) parts.push(part({ $case: 'data', value: data }));
  return parts;
}

/** What a completed task produced: the bot's texts, and the slots its turns set. */
function artifactsOf(record: TaskRecord, message: Message | undefined): Artifact[] {
  const texts = (message?.parts ?? []).filter((p) => p.content?.$case === 'text');
  const artifact = (name: string, parts: Part[]): Artifact => ({
    artifactId: `${record.id}/${name}`,
    name,
    description: '',
    parts,
    metadata: undefined,
    extensions: [],
  });
  return [
    ...(texts.length > 0 ? [artifact('text', texts)] : []),
    ...(Object.keys(record.slots).length > 0
      ? [artifact('slots', [part({ $case: 'data', value: record.slots })])]
      : []),
  ];
}
