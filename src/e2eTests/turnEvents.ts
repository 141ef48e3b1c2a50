import { isDeepStrictEqual } from 'node:util';
import * as z from 'zod';

/**
 * A conversation event as the tracker shows it. Read loosely: the checks look at the events they
 * know (`user`, `bot`, `slot`, `action`, `stack`, `flow_*`) and pass over any other.
 */
export const TurnEvent = z.object({ event: z.string() }).loose();
export type TurnEvent = z.infer<typeof TurnEvent>;

const BotEvent = z
  .object({
    event: z.literal('bot'),
    text: z.string().optional(),
    buttons: z.array(z.object({ title: z.string(), payload: z.string() }).loose()).optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
  })
  .loose();
const SlotEvent = z
  .object({ event: z.literal('slot'), name: z.string(), value: z.unknown() })
  .loose();
const FlowEvent = z
  .object({ event: z.string(), flow_id: z.string(), step_id: z.string().optional() })
  .loose();
const ActionEvent = z.object({ event: z.literal('action'), name: z.string() }).loose();
const StackEvent = z
  .object({
    event: z.literal('stack'),
    stack: z.array(
      z
        .object({
          flow_id: z.string().optional(),
          data: z.record(z.string(), z.unknown()).optional(),
        })
        .loose(),
    ),
  })
  .loose();

/** A bot message of a turn, with the response it rendered (`utter_action`) when it did. */
export interface BotUtterance {
  readonly index: number;
  readonly text: string | undefined;
  readonly buttons: readonly { title: string; payload: string }[];
  readonly response: string | undefined;
  readonly metadata: Readonly<Record<string, unknown>>;
}

export function botUtterances(events: readonly TurnEvent[]): BotUtterance[] {
  return events.flatMap((event, index) => {
    const bot = BotEvent.safeParse(event);
    if (!bot.success) return [];
    const metadata = bot.data.metadata ?? {};
    const response = typeof metadata.utter_action === 'string' ? metadata.utter_action : undefined;
    return [{ index, text: bot.data.text, buttons: bot.data.buttons ?? [], response, metadata }];
  });
}

export interface SlotChange {
  readonly index: number;
  readonly name: string;
  readonly value: unknown;
}

export function slotChanges(events: readonly TurnEvent[]): SlotChange[] {
  return events.flatMap((event, index) => {
    const slot = SlotEvent.safeParse(event);
    return slot.success ? [{ index, name: slot.data.name, value: slot.data.value }] : [];
  });
}

/** Events of a kind about a flow (`flow_started`, `flow_completed`, `flow_cancelled`, …). */
export function flowEvents(
  events: readonly TurnEvent[],
  kind: string,
): { index: number; flowId: string; stepId: string | undefined }[] {
  return events.flatMap((event, index) => {
    if (event.event !== kind) return [];
    const flow = FlowEvent.safeParse(event);
    return flow.success ? [{ index, flowId: flow.data.flow_id, stepId: flow.data.step_id }] : [];
  });
}

export function actionEvents(events: readonly TurnEvent[]): { index: number; name: string }[] {
  return events.flatMap((event, index) => {
    const action = ActionEvent.safeParse(event);
    return action.success ? [{ index, name: action.data.name }] : [];
  });
}

/** The data of the frame running `flowId` in the turn's stack events, the first that has it. */
export function frameData(
  events: readonly TurnEvent[],
  flowId: string,
): Readonly<Record<string, unknown>> | undefined {
  for (const event of events) {
    const stack = StackEvent.safeParse(event);
    if (!stack.success) continue;
    const frame = stack.data.stack.find((f) => f.flow_id === flowId);
    if (frame) return frame.data ?? {};
  }
  return undefined;
}

/** Slot values compare as Rasa compares them: by value, lists and mappings deeply. */
export function sameValue(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(a, b);
}

/** A value as a report shows it. */
export function show(value: unknown): string {
  return value === undefined ? 'nothing' : JSON.stringify(value);
}
