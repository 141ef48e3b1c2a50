import type { AgentFrame, FlowFrame, Frame } from './frames.js';

/** The topmost frame of a project flow (not a pattern), if any. */
export function topFlowFrame(stack: readonly Frame[]): FlowFrame | undefined {
  for (let i = stack.length - 1; i >= 0; i--) {
    const frame = stack[i];
    if (frame?.type === 'flow') return frame;
  }
  return undefined;
}

/** The agent frame working for a flow frame: the frame right above it, if it is an agent. */
export function agentOf(stack: readonly Frame[], flowFrame: FlowFrame): AgentFrame | undefined {
  const i = stack.findIndex((f) => f.frame_id === flowFrame.frame_id);
  const above = stack[i + 1];
  return above?.type === 'agent' ? above : undefined;
}

/** The flow frame an agent frame works for: the frame right below it. */
export function flowOf(stack: readonly Frame[], agentFrame: AgentFrame): FlowFrame | undefined {
  const i = stack.findIndex((f) => f.frame_id === agentFrame.frame_id);
  const below = stack[i - 1];
  return below?.type === 'flow' ? below : undefined;
}

/** The agent talking with the user right now: an agent frame on top, waiting for input. */
export function activeAgent(stack: readonly Frame[]): AgentFrame | undefined {
  const top = stack[stack.length - 1];
  return top?.type === 'agent' && top.status === 'input_required' ? top : undefined;
}

/**
 * The frames that make up the user's current activity, bottom to top: the top flow, the flows
 * that called it, and everything above it. Cancelling the activity removes all of them.
 */
export function currentActivity(stack: readonly Frame[]): Frame[] {
  const top = topFlowFrame(stack);
  if (!top) return [];
  let start = stack.findIndex((f) => f.frame_id === top.frame_id);
  // A called flow belongs to its caller: walk down through `call` frames.
  while (start > 0) {
    const frame = stack[start];
    if (frame?.type !== 'flow' || frame.frame_type !== 'call') break;
    let below = start - 1;
    while (below >= 0 && stack[below]?.type !== 'flow') below--;
    if (below < 0) break;
    start = below;
  }
  return stack.slice(start);
}
