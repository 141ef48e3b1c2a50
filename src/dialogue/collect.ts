import type { CollectStep, SlotDefinition, SlotType } from '../assistant/index.js';
import { conditionHolds } from '../assistant/index.js';
import { coerceSlotValue } from './commands/coerce.js';
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

/** The slot the frame on top of the stack is asking for, if it waits at a collect step. */
export function collectedSlot(ctx: TurnContext): string | undefined {
  const top = ctx.turn.top();
  if (top === undefined || top.type === 'agent') return undefined;
  const compiled = ctx.model.flows.get(top.flow_id)?.steps.get(top.step_id);
  return compiled?.kind === 'collect' ? compiled.step.collect : undefined;
}

/**
 * Rasa's answer to a value that is not of the type of the slot being collected, which its
 * `action_run_slot_rejections` says before asking again. Text, list and any slots take anything.
 */
const TYPE_REJECTIONS: Partial<Record<SlotType, string>> = {
  bool: 'utter_boolean_slot_rejection',
  float: 'utter_float_slot_rejection',
  categorical: 'utter_categorical_slot_rejection',
};

/**
 * The response that refuses a value because it is not of the slot's type (not one of a
 * categorical slot's values, no yes or no, no number); undefined when the value is of its type.
 * A number outside a float slot's bounds is of its type.
 */
export function typeRejectionOf(value: unknown, slot: SlotDefinition): string | undefined {
  const response = TYPE_REJECTIONS[slot.type];
  if (response === undefined) return undefined;
  const fitted = coerceSlotValue(value, slot);
  return fitted.ok || fitted.outOfRange ? undefined : response;
}

/**
 * Whether the slot a collect step waits for now has an acceptable value. A value not of the slot's
 * type is refused with the type's rejection, as Rasa does; one that a rejection (of the step, or
 * of the slot's validation) refuses is answered and cleared; then the project's
 * `validate_<slot>` action, when it has one, may clear it too (Rasa's slot validation).
 * `'failed'` when that action failed and the flow ended with the error pattern.
 */
export async function checkAnswer(
  ctx: TurnContext,
  frame: StepFrame,
  step: CollectStep,
): Promise<'accepted' | 'missing' | 'rejected' | 'failed'> {
  const value = ctx.turn.slots[step.collect];
  if (value === null || value === undefined) return 'missing';
  const slot = ctx.model.slots[step.collect];
  const typeRejection = slot && typeRejectionOf(value, slot);
  if (typeRejection) {
    const context = { ...patternData(ctx, frame), collect: step.collect };
    utter(ctx.model, ctx.turn, typeRejection, {
      ...utterOptions(ctx, context),
      variables: { value },
    });
    ctx.turn.setSlot(step.collect, null);
    return 'rejected';
  }
  const rejections = [...step.rejections, ...(slot?.validation?.rejections ?? [])];
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
