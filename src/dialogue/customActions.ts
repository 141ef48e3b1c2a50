import { BUILTIN_ACTIONS } from '../assistant/index.js';
import { isTransient, retryAfterOf } from '../resilience/index.js';
import { clarificationButtons, runBuiltinAction } from './builtinActions.js';
import type { TurnContext } from './context.js';
import { TurnUnavailableError } from './errors.js';
import { cancelFrames, failCurrentActivity, patternData, resetAllSlots } from './frameLifecycle.js';
import type { StepFrame } from './frames.js';
import type { ActionContext, ActionResponse, ActionResult } from './ports.js';
import type { BotMessage } from './responses/botMessage.js';
import { renderResponse, selectVariation } from './responses/render.js';
import type { StepOutcome } from './stepOutcome.js';
import { renderNamed, utterOptions } from './utter.js';

/** The longest failure reason of an action kept in the error pattern. */
const MAX_REASON = 500;
/** Follow-up actions one action may chain; more means they loop. */
const MAX_FOLLOWUPS = 10;

/**
 * An action failed in a way a later try may not, and the turn leaves retrying to its caller.
 * Code `ACTION_UNAVAILABLE`, transient.
 */
export class ActionUnavailableError extends TurnUnavailableError {
  override readonly name = 'ActionUnavailableError';
  override readonly code = 'ACTION_UNAVAILABLE';
}

/**
 * Runs a custom action of the project. An unknown action, one that throws or one that declines
 * to run ends the current flow with the internal-error pattern instead of failing the turn; a
 * failure worth another try is left to the caller when the turn asks for that.
 */
export async function runCustomAction(
  ctx: TurnContext,
  frame: StepFrame,
  name: string,
  followups = 0,
): Promise<StepOutcome> {
  if (!ctx.ports.actions.has(name)) {
    failCurrentActivity(ctx, `unknown action ${name}`);
    return 'yield';
  }
  const context = actionContextOf(ctx, frame);
  ctx.turn.emit({ event: 'action', name });
  let result: ActionResult;
  try {
    result = await ctx.ports.actions.run(name, context);
  } catch (error) {
    if (ctx.signal?.aborted) throw error;
    // Kept in the conversation's state as the error pattern's reason: short, whatever the port said.
    const reason = (error instanceof Error ? error.message : String(error)).slice(0, MAX_REASON);
    const failure = `action ${name} failed: ${reason}`;
    if (ctx.retryUnavailable && isTransient(error)) {
      throw new ActionUnavailableError(failure, retryAfterOf(error), { cause: error });
    }
    failCurrentActivity(ctx, failure);
    return 'yield';
  }
  return applyActionResult(ctx, frame, name, result, followups);
}

/**
 * What an action about to run sees: the conversation up to itself (recent events and stack, as
 * Rasa's tracker shows it to an action), and a call key that is the same when the turn runs
 * again. Call it once per run, before the run's `action` event.
 */
export function actionContextOf(ctx: TurnContext, frame: StepFrame): ActionContext {
  const before = ctx.turn.snapshot();
  return {
    senderId: ctx.turn.senderId,
    slots: ctx.turn.slots,
    latestMessage: ctx.turn.userMessage,
    flowId: frame.flow_id,
    stepId: frame.step_id,
    events: before.recent_events,
    stack: before.stack,
    ...(ctx.turn.userMetadata ? { latestMetadata: ctx.turn.userMetadata } : {}),
    ...(ctx.channel !== undefined ? { channel: ctx.channel } : {}),
    ...(ctx.callKey !== undefined
      ? {
          callKey: [ctx.callKey, frame.frame_id, frame.step_id, ctx.turn.nextToolCall()].join('|'),
        }
      : {}),
    ...(ctx.signal ? { signal: ctx.signal } : {}),
    ...(ctx.deadline !== undefined ? { deadline: ctx.deadline } : {}),
  };
}

/**
 * Applies what an action returned: a rejection ends the flow with the internal-error pattern;
 * otherwise its messages and responses are said (named responses with the slots it found, as
 * Rasa renders an action's responses), slots are reset or the conversation restarted, its slots
 * set, and its follow-up action run.
 */
export async function applyActionResult(
  ctx: TurnContext,
  frame: StepFrame,
  name: string,
  result: ActionResult,
  followups = 0,
): Promise<StepOutcome> {
  if (result.rejected !== undefined) {
    failCurrentActivity(
      ctx,
      `action ${name} was rejected: ${result.rejected.slice(0, MAX_REASON)}`,
    );
    return 'yield';
  }
  const said = (result.responses ?? []).flatMap((response) => {
    const message = renderActionResponse(ctx, frame, response);
    return message ? [message] : [];
  });
  for (const message of result.messages ?? []) ctx.turn.say(message);
  for (const message of said) ctx.turn.say(message);
  if (result.restart) {
    cancelFrames(ctx, ctx.turn.stack);
    resetAllSlots(ctx);
  } else if (result.resetSlots) {
    resetAllSlots(ctx);
  }
  for (const [slot, value] of Object.entries(result.slots ?? {})) ctx.turn.setSlot(slot, value);
  if (result.restart) return 'yield';
  return result.followup === undefined
    ? 'advance'
    : runFollowup(ctx, frame, result.followup, followups + 1);
}

/**
 * Runs an action by name, as a flow's `action` step or an action's follow-up: a response is
 * said; a project action runs before a built-in one of the same name (Rasa lets a project
 * replace `action_session_start`, say); then the built-ins. `followups` counts the follow-ups
 * already chained.
 */
export async function runNamedAction(
  ctx: TurnContext,
  frame: StepFrame,
  name: string,
  followups = 0,
): Promise<StepOutcome> {
  if (ctx.model.responses[name]) {
    const message = renderNamed(
      ctx.model,
      ctx.turn,
      name,
      utterOptions(ctx, patternData(ctx, frame)),
    );
    if (message) {
      ctx.turn.say(
        name === CLARIFICATION_QUESTION ? clarificationButtons(ctx, frame, message) : message,
      );
    }
    return 'advance';
  }
  if (!ctx.ports.actions.has(name) && BUILTIN_ACTIONS.has(name)) {
    ctx.turn.emit({ event: 'action', name });
    return runBuiltinAction(ctx, frame, name);
  }
  return runCustomAction(ctx, frame, name, followups);
}

/** The response that asks which flow the user meant; it gets a button per flow. */
const CLARIFICATION_QUESTION = 'utter_clarification_options_rasa';

/** Runs the action an action asked for next; Rasa ignores one it does not know, as we do. */
async function runFollowup(
  ctx: TurnContext,
  frame: StepFrame,
  name: string,
  followups: number,
): Promise<StepOutcome> {
  if (followups > MAX_FOLLOWUPS) {
    failCurrentActivity(
      ctx,
      `more than ${MAX_FOLLOWUPS} follow-up actions in a row; do they loop?`,
    );
    return 'yield';
  }
  return isKnownAction(ctx, name) ? runNamedAction(ctx, frame, name, followups) : 'advance';
}

/** Whether a name is a response, a built-in action or one of the project's actions. */
export function isKnownAction(ctx: TurnContext, name: string): boolean {
  return (
    ctx.model.responses[name] !== undefined ||
    BUILTIN_ACTIONS.has(name) ||
    ctx.ports.actions.has(name)
  );
}

/**
 * The message of one response an action asked for. A named response is rendered with the
 * action's variables over the slots (the variation chosen by the slots alone); a name the
 * domain does not define says nothing, as in Rasa.
 */
function renderActionResponse(
  ctx: TurnContext,
  frame: StepFrame,
  response: ActionResponse,
): BotMessage | undefined {
  const { name, message } = response;
  if (name === undefined) return message;
  const rendered =
    response.variables && Object.keys(response.variables).length > 0
      ? renderWithVariables(ctx, frame, name, response.variables)
      : renderNamed(ctx.model, ctx.turn, name, renderOptions(ctx, frame));
  if (!rendered || !message) return rendered;
  const buttons = [...(rendered.buttons ?? []), ...(message.buttons ?? [])];
  return {
    ...rendered,
    ...message,
    ...(buttons.length > 0 ? { buttons } : {}),
    response: name,
    ...(rendered.metadata || message.metadata
      ? { metadata: { ...rendered.metadata, ...message.metadata } }
      : {}),
  };
}

function renderWithVariables(
  ctx: TurnContext,
  frame: StepFrame,
  name: string,
  variables: Readonly<Record<string, unknown>>,
): BotMessage | undefined {
  const variations = ctx.model.responses[name];
  if (!variations) return undefined;
  const options = renderOptions(ctx, frame);
  const chosen = selectVariation(variations, { slots: ctx.turn.slots, ...options });
  if (!chosen) return undefined;
  const { condition: _condition, ...unconditional } = chosen;
  return renderResponse(name, [unconditional], {
    ...options,
    slots: ctx.turn.slots,
    slotTypes: ctx.model.slots,
    variables,
  });
}

function renderOptions(ctx: TurnContext, frame: StepFrame) {
  return utterOptions(ctx, patternData(ctx, frame));
}
