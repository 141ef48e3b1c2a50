import type { CollectStep } from '../assistant/index.js';
import { conditionHolds } from '../assistant/index.js';
import type { TurnContext } from './context.js';
import { DialogueExecutionError } from './errors.js';
import type { StepFrame } from './frames.js';
import { utter } from './utter.js';

/** Asks the collect step's question (after a rejection, the slot's `refill_utter` if it has one). */
export function askForSlot(
  ctx: TurnContext,
  frame: StepFrame,
  step: CollectStep,
  options: { again?: boolean } = {},
): void {
  const refill = options.again
    ? ctx.model.slots[step.collect]?.validation?.refill_utter
    : undefined;
  const name = refill ?? step.utter ?? `utter_ask_${step.collect}`;
  const context = { ...(frame.type === 'pattern' ? frame.data : {}), collect: step.collect };
  const said = utter(ctx.model, ctx.turn, name, {
    random: ctx.ports.random,
    context,
    ...(ctx.channel !== undefined ? { channel: ctx.channel } : {}),
  });
  if (!said) {
    throw new DialogueExecutionError(`no response "${name}" to ask for slot "${step.collect}"`);
  }
}

/**
 * Whether the slot a collect step waits for now has an acceptable value. A value that a
 * rejection (of the step, or of the slot's validation) refuses is answered and cleared.
 */
export function checkAnswer(
  ctx: TurnContext,
  frame: StepFrame,
  step: CollectStep,
): 'accepted' | 'missing' | 'rejected' {
  const value = ctx.turn.slots[step.collect];
  if (value === null || value === undefined) return 'missing';
  const rejections = [
    ...step.rejections,
    ...(ctx.model.slots[step.collect]?.validation?.rejections ?? []),
  ];
  const scope = { slots: ctx.turn.slots };
  const rejection = rejections.find((r) => conditionHolds(r.if, scope));
  if (!rejection) return 'accepted';
  utter(ctx.model, ctx.turn, rejection.utter, {
    random: ctx.ports.random,
    context: { ...(frame.type === 'pattern' ? frame.data : {}), collect: step.collect },
    ...(ctx.channel !== undefined ? { channel: ctx.channel } : {}),
  });
  ctx.turn.setSlot(step.collect, null);
  return 'rejected';
}
