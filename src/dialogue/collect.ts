import type { CollectStep } from '../assistant/index.js';
import { conditionHolds } from '../assistant/index.js';
import type { TurnContext } from './context.js';
import { runCustomAction } from './customActions.js';
import { patternData } from './frameLifecycle.js';
import type { StepFrame } from './frames.js';
import type { StepOutcome } from './stepOutcome.js';
import { utter, utterOptions } from './utter.js';

/**
 * Asks the collect step's question: its `utter`, else `utter_ask_<slot>` (after a rejection, the
 * slot's `refill_utter` if it has one), else the project's `action_ask_<slot>`, as Rasa does.
 * Without any of them the assistant waits for the answer without asking, as Rasa does too.
 * `'yield'` when the asking action failed and the flow ended with the error pattern.
 */
export async function askForSlot(
  ctx: TurnContext,
  frame: StepFrame,
  step: CollectStep,
  options: { again?: boolean } = {},
): Promise<StepOutcome> {
  const refill = options.again
    ? ctx.model.slots[step.collect]?.validation?.refill_utter
    : undefined;
  const name = refill ?? step.utter ?? `utter_ask_${step.collect}`;
  const context = { ...patternData(ctx, frame), collect: step.collect };
  const said = utter(ctx.model, ctx.turn, name, utterOptions(ctx, context));
  if (said || step.utter !== undefined) return 'wait';
  const action = `action_ask_${step.collect}`;
  if (!ctx.ports.actions.has(action)) return 'wait';
  const outcome = await runCustomAction(ctx, frame, action);
  return outcome === 'advance' ? 'wait' : outcome;
}

/**
 * Whether the slot a collect step waits for now has an acceptable value. A value that a
 * rejection (of the step, or of the slot's validation) refuses is answered and cleared; then the
 * project's `validate_<slot>` action, when it has one, may clear it too (Rasa's slot validation).
 * `'failed'` when that action failed and the flow ended with the error pattern.
 */
export async function checkAnswer(
  ctx: TurnContext,
  frame: StepFrame,
  step: CollectStep,
): Promise<'accepted' | 'missing' | 'rejected' | 'failed'> {
  const value = ctx.turn.slots[step.collect];
  if (value === null || value === undefined) return 'missing';
  const rejections = [
    ...step.rejections,
    ...(ctx.model.slots[step.collect]?.validation?.rejections ?? []),
  ];
  const scope = { slots: ctx.turn.slots, context: patternData(ctx, frame) };
  const rejection = rejections.find((r) => conditionHolds(r.if, scope));
  if (rejection) {
    const context = { ...patternData(ctx, frame), collect: step.collect };
    utter(ctx.model, ctx.turn, rejection.utter, utterOptions(ctx, context));
    ctx.turn.setSlot(step.collect, null);
    return 'rejected';
  }
  const validate = `validate_${step.collect}`;
  if (!ctx.ports.actions.has(validate)) return 'accepted';
  if ((await runCustomAction(ctx, frame, validate)) !== 'advance') return 'failed';
  const after = ctx.turn.slots[step.collect];
  return after === null || after === undefined ? 'rejected' : 'accepted';
}
