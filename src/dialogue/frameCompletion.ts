import type { TurnContext } from './context.js';
import { startPattern } from './frameLifecycle.js';
import type { FlowFrame, StepFrame } from './frames.js';
import { PATTERN } from './patterns/builtins.js';
import { resumeInterrupted } from './resume.js';

/** Ends a flow or pattern that reached END. */
export function completeStepFrame(ctx: TurnContext, frame: StepFrame): void {
  ctx.turn.remove(frame.frame_id);
  ctx.turn.emit({ event: 'flow_completed', flow_id: frame.flow_id, step_id: frame.step_id });
  if (frame.type === 'pattern') {
    // An overriding pattern may end without deciding; going back is the harmless choice.
    if (frame.flow_id === PATTERN.continueInterrupted) resumeInterrupted(ctx, frame.data);
    return;
  }
  if (frame.frame_type === 'call') return;
  resetFlowSlots(ctx, frame);
  const definition = ctx.model.flows.get(frame.flow_id)?.definition;
  if (ctx.turn.stack.length === 0 && definition?.run_pattern_completed !== false) {
    startPattern(ctx, PATTERN.completed, { previous_flow_name: definition?.name ?? frame.flow_id });
  }
}

/**
 * Forgets the slots a flow collected, as Rasa does when a flow ends: except those with
 * `reset_after_flow_ends: false` and those in the flow's `persisted_slots`.
 */
export function resetFlowSlots(ctx: TurnContext, frame: FlowFrame): void {
  const graph = ctx.model.flows.get(frame.flow_id);
  if (!graph) return;
  const persisted = new Set(graph.definition.persisted_slots ?? []);
  for (const step of graph.steps.values()) {
    if (!('collect' in step.step) || !step.step.reset_after_flow_ends) continue;
    if (persisted.has(step.step.collect)) continue;
    ctx.turn.setSlot(step.step.collect, ctx.model.slots[step.step.collect]?.initial_value ?? null);
  }
}
