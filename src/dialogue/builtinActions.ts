import { PATTERN } from '../assistant/index.js';
import type { TurnContext } from './context.js';
import {
  cancelFrames,
  flowName,
  moveTo,
  patternData,
  resetAllSlots,
  startPattern,
  updatePatternData,
} from './frameLifecycle.js';
import type { FlowFrame, Frame, StepFrame } from './frames.js';
import { triggerSearch } from './knowledgeSearch.js';
import type { BotMessage } from './responses/botMessage.js';
import { resumeFrames, resumeInterrupted } from './resume.js';
import { activityOf, agentOf } from './stackQueries.js';
import type { StepOutcome } from './stepOutcome.js';
import { utter, utterOptions } from './utter.js';

/**
 * Runs one of the engine's own actions (the names in BUILTIN_ACTIONS), as Rasa's default
 * actions of the same names behave. Those that only make sense with Rasa's NLU, voice channels
 * or policies Switchboard does not have do nothing.
 */
export function runBuiltinAction(
  ctx: TurnContext,
  frame: StepFrame,
  name: string,
): StepOutcome | Promise<StepOutcome> {
  const data = patternData(ctx, frame);
  switch (name) {
    case 'action_continue_interrupted_flow':
    case 'action_continue_interrupted':
      continueInterrupted(ctx, data);
      return 'advance';
    case 'action_cancel_interrupted_flows':
    case 'action_cancel_interrupted':
      for (const id of offeredFrames(data)) cancelFrames(ctx, activityOf(ctx.turn.stack, id));
      return 'advance';
    case 'action_cancel_flow':
      cancelFrames(ctx, framesNamed(ctx.turn.stack, data.canceled_frames));
      return 'advance';
    case 'action_correct_flow_slot':
      correctFlowSlot(ctx, data);
      return 'advance';
    case 'action_clarify_flows':
      clarify(ctx, frame, data);
      return 'advance';
    case 'action_repeat_bot_messages':
      for (const message of (data.messages ?? []) as BotMessage[]) ctx.turn.say(message);
      return 'advance';
    case 'action_restart':
      restart(ctx, frame);
      // As Rasa's action_restart: utter_restart, when there is one (a built-in default here).
      utter(ctx.model, ctx.turn, 'utter_restart', utterOptions(ctx, data));
      return 'advance';
    case 'action_clean_stack':
      cancelFrames(
        ctx,
        ctx.turn.stack.filter((f) => f.frame_id !== frame.frame_id),
      );
      return 'advance';
    case 'action_session_start':
      // The session may have started already, before the message that opened it.
      if (!ctx.turn.events.some((event) => event.event === 'session_started')) {
        ctx.turn.emit({ event: 'session_started' });
      }
      if (ctx.turn.userMetadata) {
        ctx.turn.setSlot('session_started_metadata', { ...ctx.turn.userMetadata });
      }
      return 'advance';
    case 'action_trigger_search':
      return triggerSearch(ctx, frame);
    case 'action_trigger_chitchat':
      // No model answers free chat here: as Rasa without its intentless policy.
      startPattern(ctx, PATTERN.cannotHandle, { reason: 'cannot_handle_chitchat' });
      return 'yield';
    case 'action_default_ask_rephrase':
      utter(ctx.model, ctx.turn, 'utter_ask_rephrase', utterOptions(ctx, data));
      return 'advance';
    default:
      // action_listen, action_hangup, action_handoff_metric, action_reset_routing and the
      // NLU-era actions: nothing to do here.
      return 'advance';
  }
}

/** The interrupted flows a continue pattern offered, top first. */
function offeredFrames(data: Readonly<Record<string, unknown>>): string[] {
  const listed = data.interrupted_flow_frames;
  if (Array.isArray(listed)) return listed.filter((id): id is string => typeof id === 'string');
  const single = data.interrupted_flow_frame ?? data.interrupted_agent_frame;
  return typeof single === 'string' ? [single] : [];
}

function framesNamed(stack: readonly Frame[], ids: unknown): Frame[] {
  if (!Array.isArray(ids)) return [];
  const wanted = new Set(ids);
  return stack.filter((f) => wanted.has(f.frame_id));
}

/**
 * Goes back to an interrupted flow: the one the user named (`interrupted_flow_to_continue`,
 * by name or id) when several were interrupted, otherwise the one the pattern offered first.
 */
function continueInterrupted(ctx: TurnContext, data: Readonly<Record<string, unknown>>): void {
  const offered = offeredFrames(data)
    .map((id) => ctx.turn.stack.find((f) => f.frame_id === id))
    .filter((f): f is FlowFrame => f?.type === 'flow');
  const chosen = ctx.turn.slots.interrupted_flow_to_continue;
  const wanted = typeof chosen === 'string' ? chosen.trim().toLowerCase() : undefined;
  const flow =
    offered.find(
      (f) => f.flow_id === chosen || flowName(ctx, f.flow_id).toLowerCase() === wanted,
    ) ?? offered[0];
  // Only an agent was interrupted (no flow offered): go back to it.
  if (!flow) {
    resumeInterrupted(ctx, data);
    return;
  }
  if (flow !== offered[0]) {
    for (const part of activityOf(ctx.turn.stack, flow.frame_id)) ctx.turn.raise(part.frame_id);
  }
  resumeFrames(ctx, flow, agentOf(ctx.turn.stack, flow));
}

/**
 * Applies a correction the pattern holds: the corrected slots take their new values and the
 * flow goes back to the step that collected them. Until this runs nothing has changed, so a
 * pattern that lets the user decline leaves the old values.
 */
function correctFlowSlot(ctx: TurnContext, data: Readonly<Record<string, unknown>>): void {
  const corrected = data.corrected_slots;
  if (corrected === null || typeof corrected !== 'object') return;
  for (const [slot, value] of Object.entries(corrected)) ctx.turn.setSlot(slot, value);
  const flow = ctx.turn.stack.find((f) => f.frame_id === data.reset_frame_id);
  if (flow?.type === 'flow' && typeof data.reset_step_id === 'string') {
    moveTo(ctx, flow, data.reset_step_id);
  }
}

/** Readies the options of a clarification: their names, for the response that lists them. */
function clarify(
  ctx: TurnContext,
  frame: StepFrame,
  data: Readonly<Record<string, unknown>>,
): void {
  const names = Array.isArray(data.names) ? data.names.map(String) : [];
  updatePatternData(ctx, frame.frame_id, { clarification_options: joinOptions(names) });
}

/** `a`, `a or b`, `a, b or c`. */
export function joinOptions(names: readonly string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;
}

/** Buttons for the flows a clarification offers, added to its question when it has none. */
export function clarificationButtons(
  ctx: TurnContext,
  frame: StepFrame,
  message: BotMessage,
): BotMessage {
  const data = patternData(ctx, frame);
  if (message.buttons?.length || !Array.isArray(data.flow_ids)) return message;
  const buttons = data.flow_ids.map((id) => ({
    title: flowName(ctx, String(id)),
    payload: `/StartFlow(${String(id)})`,
  }));
  return { ...message, buttons };
}

function restart(ctx: TurnContext, current: StepFrame): void {
  cancelFrames(
    ctx,
    ctx.turn.stack.filter((f) => f.frame_id !== current.frame_id),
  );
  resetAllSlots(ctx);
}
