import * as z from 'zod';
import type { ActionResult } from '../dialogue/index.js';
import { type ActionResponse, botEventResponse, isPlainObject, responseOf } from './messages.js';

/** An action server's answer: loose, as peers may send more than Rasa reads. `null` is empty. */
export const ActionAnswer = z
  .object({
    events: z.array(z.unknown()).nullish(),
    responses: z.array(z.unknown()).nullish(),
  })
  .nullable();
export type ActionAnswer = z.infer<typeof ActionAnswer>;

/** A 400 answer: the action declined to run. */
export const RejectionAnswer = z.object({
  error: z.string().nullish(),
  action_name: z.string().nullish(),
});

const JsonObject = z.record(z.string(), z.unknown());
const ServerEvent = z.discriminatedUnion('event', [
  // A slot event without a value resets the slot, as Rasa reads it (`value` defaults to None).
  z.object({ event: z.literal('slot'), name: z.string(), value: z.unknown().optional() }),
  z.object({ event: z.literal('reset_slots') }),
  z.object({ event: z.literal('restart') }),
  z.object({ event: z.literal('followup'), name: z.string() }),
  z.object({ event: z.literal('action_execution_rejected'), name: z.string().nullish() }),
  z.object({
    event: z.literal('bot'),
    text: z.unknown(),
    data: JsonObject.nullish(),
    metadata: JsonObject.nullish(),
  }),
]);
type ServerEvent = z.infer<typeof ServerEvent>;

/** What an answer meant, and what of it was left aside (for the log). */
export interface AnswerOutcome {
  readonly result: ActionResult;
  /** Events of kinds Switchboard does not apply, malformed entries, unknown slots. */
  readonly ignored: readonly string[];
}

/**
 * What an action server's answer does, in Rasa's order: the `responses` are said first, then
 * the events apply in turn — `slot`, `reset_slots` and `restart` (which forget the slot events
 * before them), `followup`, `bot` (said after the responses) and `action_execution_rejected`
 * naming the action (which drops everything else). Other events are ignored; so are slot events
 * for slots the conversation does not have, as Rasa ignores them.
 */
export function answerOutcome(
  answer: ActionAnswer,
  actionName: string,
  knownSlots: ReadonlySet<string>,
): AnswerOutcome {
  const ignored: string[] = [];
  const responses: ActionResponse[] = [];
  for (const entry of answer?.responses ?? []) {
    if (!isPlainObject(entry)) {
      ignored.push('a response that is not an object');
      continue;
    }
    const response = responseOf(entry);
    if (response) responses.push(response);
  }
  let slots: Record<string, unknown> = {};
  let resetSlots = false;
  let restart = false;
  let followup: string | undefined;
  for (const raw of answer?.events ?? []) {
    const parsed = ServerEvent.safeParse(raw);
    if (!parsed.success) {
      ignored.push(describeIgnored(raw));
      continue;
    }
    const event: ServerEvent = parsed.data;
    switch (event.event) {
      case 'slot':
        if (knownSlots.has(event.name)) slots[event.name] = event.value ?? null;
        else ignored.push(`slot event for unknown slot ${event.name}`);
        break;
      case 'reset_slots':
        resetSlots = true;
        slots = {};
        break;
      case 'restart':
        restart = true;
        slots = {};
        followup = undefined;
        break;
      case 'followup':
        followup = event.name;
        break;
      case 'bot': {
        const response = botEventResponse(
          event.text,
          event.data ?? undefined,
          event.metadata ?? undefined,
        );
        if (response) responses.push(response);
        break;
      }
      case 'action_execution_rejected':
        if (event.name === undefined || event.name === null || event.name === actionName) {
          return { result: { rejected: 'the action answered action_execution_rejected' }, ignored };
        }
        ignored.push(`action_execution_rejected for ${event.name}`);
        break;
      default:
        return assertNever(event);
    }
  }
  return {
    result: {
      ...(Object.keys(slots).length > 0 ? { slots } : {}),
      ...(responses.length > 0 ? { responses } : {}),
      ...(resetSlots && !restart ? { resetSlots } : {}),
      ...(restart ? { restart } : {}),
      ...(followup !== undefined ? { followup } : {}),
    },
    ignored,
  };
}

function describeIgnored(raw: unknown): string {
  if (!isPlainObject(raw) || typeof raw.event !== 'string') return 'an entry that is not an event';
  const known = ServerEvent.options.some((option) => option.shape.event.value === raw.event);
  return known ? `a malformed ${raw.event} event` : `${raw.event} event`;
}

function assertNever(value: never): never {
  throw new Error(`unknown event ${JSON.stringify(value)}`);
}
