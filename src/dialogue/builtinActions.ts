import type { TurnContext } from './context.js';
import { cancelFrames, flowName } from './frameLifecycle.js';
import type { Frame, StepFrame } from './frames.js';
import type { BotMessage } from './responses/botMessage.js';
import { resumeInterrupted } from './resume.js';
import { activityOf } from './stackQueries.js';
import type { StepOutcome } from './steps.js';
import { renderNamed } from './utter.js';

/** Runs one of the engine's own actions (the names in BUILTIN_ACTIONS). */
export function runBuiltinAction(ctx: TurnContext, frame: StepFrame, name: string): StepOutcome {
  const data = frame.type === 'pattern' ? frame.data : {};
  switch (name) {
    case 'action_continue_interrupted':
      resumeInterrupted(ctx, data);
      return 'advance';
    case 'action_cancel_interrupted':
      cancelFrames(ctx, interruptedActivity(ctx.turn.stack, data));
      return 'advance';
    case 'action_clarify_flows':
      clarify(ctx, data);
      return 'advance';
    case 'action_repeat_bot_messages':
      for (const message of (data.messages ?? []) as BotMessage[]) ctx.turn.say(message);
      return 'advance';
    case 'action_restart':
      restart(ctx, frame);
      return 'advance';
    default:
      // action_listen, action_session_start, and the cancel and correction actions, whose work
      // is done when their command is processed; patterns keep naming them for compatibility.
      return 'advance';
  }
}

/** The interrupted flow a continue pattern names, with its callers, called flows and agent. */
function interruptedActivity(
  stack: readonly Frame[],
  data: Readonly<Record<string, unknown>>,
): Frame[] {
  const id = data.interrupted_flow_frame ?? data.interrupted_agent_frame;
  return typeof id === 'string' ? activityOf(stack, id) : [];
}

function clarify(ctx: TurnContext, data: Readonly<Record<string, unknown>>): void {
  const flows = Array.isArray(data.names) ? (data.names as string[]) : [];
  const message = renderNamed(ctx.model, ctx.turn, 'utter_clarification_options_rasa', {
    random: ctx.ports.random,
    context: data,
  }) ?? { text: 'Which of these did you mean?' };
  const buttons = flows.map((id) => ({ title: flowName(ctx, id), payload: `/StartFlow(${id})` }));
  ctx.turn.say({ ...message, buttons: [...(message.buttons ?? []), ...buttons] });
}

function restart(ctx: TurnContext, current: StepFrame): void {
  cancelFrames(
    ctx,
    ctx.turn.stack.filter((f) => f.frame_id !== current.frame_id),
  );
  for (const [name, slot] of Object.entries(ctx.model.slots)) {
    ctx.turn.setSlot(name, slot.initial_value ?? null);
  }
}
