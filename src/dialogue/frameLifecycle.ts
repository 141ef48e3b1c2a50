import { PATTERN } from '../assistant/index.js';
import type { TurnContext } from './context.js';
import type { FlowFrame, Frame, PatternFrame, StepFrame } from './frames.js';
import { START } from './frames.js';
import { currentActivity, topFlowFrame } from './stackQueries.js';

/** Starts a flow on top of the stack. */
export function startFlow(
  ctx: TurnContext,
  flowId: string,
  frameType: FlowFrame['frame_type'],
): FlowFrame {
  const frame: FlowFrame = {
    type: 'flow',
    frame_id: ctx.turn.newFrameId(),
    flow_id: flowId,
    step_id: START,
    frame_type: frameType,
  };
  ctx.turn.push(frame);
  ctx.turn.emit({ event: 'flow_started', flow_id: flowId });
  return frame;
}

/** Starts a pattern on top of the stack with the data its steps and responses read. */
export function startPattern(
  ctx: TurnContext,
  patternId: string,
  data: Record<string, unknown> = {},
): PatternFrame {
  const frame: PatternFrame = {
    type: 'pattern',
    frame_id: ctx.turn.newFrameId(),
    flow_id: patternId,
    step_id: START,
    data,
  };
  ctx.turn.push(frame);
  ctx.turn.emit({ event: 'flow_started', flow_id: patternId });
  return frame;
}

/** The user-facing name of a flow: its `name`, or its id. */
export function flowName(ctx: TurnContext, flowId: string): string {
  return ctx.model.flows.get(flowId)?.definition.name ?? flowId;
}

/**
 * Removes frames as cancelled, top first, writing `agent_cancelled` and `flow_cancelled`, and
 * forgets the slots the cancelled flows collected.
 */
export function cancelFrames(ctx: TurnContext, frames: readonly Frame[]): void {
  for (const frame of [...frames].reverse()) {
    ctx.turn.remove(frame.frame_id);
    if (frame.type === 'agent') {
      ctx.turn.emit({ event: 'agent_cancelled', agent_id: frame.agent_id, flow_id: frame.flow_id });
    } else {
      ctx.turn.emit({ event: 'flow_cancelled', flow_id: frame.flow_id, step_id: frame.step_id });
      resetFlowSlots(ctx, frame.flow_id);
    }
  }
}

/** Sets every slot back to its initial value, as Rasa's restart and `reset_slots` do. */
export function resetAllSlots(ctx: TurnContext): void {
  for (const [name, slot] of Object.entries(ctx.model.slots)) {
    ctx.turn.setSlot(name, slot.initial_value ?? null);
  }
}

/** Said when even the internal-error pattern fails. */
export const FALLBACK_ERROR_TEXT =
  'Sorry, something went wrong on my side. Please try again in a moment.';

/**
 * Ends what failed and tells the user: the current activity, or the top frame when no flow is
 * running (a failing pattern). When the internal-error pattern itself is what failed (a broken
 * override), it ends too and the user gets a plain message: starting it again would loop.
 */
export function failCurrentActivity(ctx: TurnContext, reason: string): void {
  const stack = ctx.turn.stack;
  const errorPattern = stack.findIndex(
    (f) => f.type === 'pattern' && f.flow_id === PATTERN.internalError,
  );
  if (errorPattern >= 0) {
    cancelFrames(ctx, stack.slice(errorPattern));
    ctx.turn.say({ text: FALLBACK_ERROR_TEXT });
    return;
  }
  const activity = currentActivity(ctx.turn.stack);
  cancelFrames(ctx, activity.length > 0 ? activity : ctx.turn.stack.slice(-1));
  startPattern(ctx, PATTERN.internalError, { reason });
}

/**
 * Forgets the slots a flow (and the flows it calls) collected, as Rasa does when a flow ends:
 * except those with `reset_after_flow_ends: false` and those in the flow's `persisted_slots`.
 */
export function resetFlowSlots(ctx: TurnContext, flowId: string): void {
  const persisted = new Set(ctx.model.flows.get(flowId)?.definition.persisted_slots ?? []);
  const seen = new Set<string>();
  const visit = (id: string): void => {
    const graph = ctx.model.flows.get(id);
    if (!graph || seen.has(id)) return;
    seen.add(id);
    for (const step of graph.steps.values()) {
      if (step.kind !== 'collect' || !step.step.reset_after_flow_ends) continue;
      if (persisted.has(step.step.collect)) continue;
      ctx.turn.setSlot(
        step.step.collect,
        ctx.model.slots[step.step.collect]?.initial_value ?? null,
      );
    }
    for (const called of graph.calledFlows) visit(called);
  };
  visit(flowId);
}

/** Marks the top flow (and its agent) as interrupted by a digression. */
export function interruptTopFlow(ctx: TurnContext): void {
  const flow = topFlowFrame(ctx.turn.stack);
  if (!flow || flow.interrupted) return;
  const i = ctx.turn.stack.findIndex((f) => f.frame_id === flow.frame_id);
  const above = ctx.turn.stack[i + 1];
  ctx.turn.update({ ...flow, interrupted: true });
  ctx.turn.emit({ event: 'flow_interrupted', flow_id: flow.flow_id, step_id: flow.step_id });
  if (above?.type === 'agent' && above.status !== 'interrupted') {
    ctx.turn.update({ ...above, status: 'interrupted' });
    ctx.turn.emit({ event: 'agent_interrupted', agent_id: above.agent_id, flow_id: above.flow_id });
  }
}

/**
 * Replaces a step frame's position, keeping what else changed on the frame meanwhile (an
 * action may have updated a pattern's data).
 */
export function moveTo(ctx: TurnContext, frame: StepFrame, stepId: string): StepFrame {
  const current = ctx.turn.stack.find((f) => f.frame_id === frame.frame_id);
  const base = current?.type === frame.type ? (current as StepFrame) : frame;
  const moved = { ...base, step_id: stepId };
  ctx.turn.update(moved);
  return moved;
}

/** A pattern frame's data as it is now on the stack (empty for other frames). */
export function patternData(
  ctx: TurnContext,
  frame: { readonly frame_id: string },
): Readonly<Record<string, unknown>> {
  const current = ctx.turn.stack.find((f) => f.frame_id === frame.frame_id);
  return current?.type === 'pattern' ? current.data : {};
}

/** Merges keys into a pattern frame's data. */
export function updatePatternData(
  ctx: TurnContext,
  frameId: string,
  data: Readonly<Record<string, unknown>>,
): void {
  const current = ctx.turn.stack.find((f) => f.frame_id === frameId);
  if (current?.type !== 'pattern') return;
  ctx.turn.update({ ...current, data: { ...current.data, ...data } });
}
