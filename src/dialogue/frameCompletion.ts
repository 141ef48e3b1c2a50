import { PATTERN } from '../assistant/index.js';
import type { TurnContext } from './context.js';
import { resetFlowSlots, startPattern } from './frameLifecycle.js';
import type { StepFrame } from './frames.js';
import { resumeInterrupted } from './resume.js';

/** Ends a flow or pattern that reached END. */
export function completeStepFrame(ctx: TurnContext, frame: StepFrame): void {
  ctx.turn.remove(frame.frame_id);
  ctx.turn.emit({ event: 'flow_completed', flow_id: frame.flow_id, step_id: frame.step_id });
  if (frame.type === 'pattern') {
    // An overriding pattern may end without deciding; going back is the harmless choice.
    if (frame.flow_id === PATTERN.continueInterrupted) resumeInterrupted(ctx, frame.data);
    resetFlowSlots(ctx, frame.flow_id);
    return;
  }
  // A called flow's slots belong to its caller, which resets them when it ends.
  if (frame.frame_type === 'call') return;
  resetFlowSlots(ctx, frame.flow_id);
  const definition = ctx.model.flows.get(frame.flow_id)?.definition;
  if (ctx.turn.stack.length === 0 && definition?.run_pattern_completed !== false) {
    startPattern(ctx, PATTERN.completed, { previous_flow_name: definition?.name ?? frame.flow_id });
  }
}
