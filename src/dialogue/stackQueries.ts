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

/** An agent on top whose run goes on in the background. */
export function workingAgent(stack: readonly Frame[]): AgentFrame | undefined {
  const top = stack[stack.length - 1];
  return top?.type === 'agent' && top.status === 'working' ? top : undefined;
}

/**
 * The frames of the activity a flow frame belongs to, bottom to top: the flow, the flows that
 * called it (a called flow is part of its caller), and the flows it called and agents working
 * for them, up to the next frame that is not part of it.
 */
export function activityOf(stack: readonly Frame[], frameId: string): Frame[] {
  const index = stack.findIndex((f) => f.frame_id === frameId);
  if (index < 0) return [];
  let start = index;
  while (start > 0) {
    const frame = stack[start];
    if (frame?.type !== 'flow' || frame.frame_type !== 'call') break;
    start--;
    while (start > 0 && stack[start]?.type === 'agent') start--;
  }
  let end = index + 1;
  while (end < stack.length) {
    const frame = stack[end];
    const partOf =
      frame?.type === 'agent' || (frame?.type === 'flow' && frame.frame_type === 'call');
    if (!partOf) break;
    end++;
  }
  return stack.slice(start, end);
}

/** What the user is doing now: the activity of the top flow, and any patterns above it. */
export function currentActivity(stack: readonly Frame[]): Frame[] {
  const top = topFlowFrame(stack);
  if (!top) return [];
  const activity = activityOf(stack, top.frame_id);
  const first = activity[0];
  return first ? stack.slice(stack.indexOf(first)) : [];
}

/** The agent frame working on a run (its result not yet applied), if any. */
export function workingFrameOf(stack: readonly Frame[], runId: string): AgentFrame | undefined {
  return stack.find(
    (f): f is AgentFrame => f.type === 'agent' && f.status === 'working' && f.run_id === runId,
  );
}

/** The ids of the runs that agent frames are working on. */
export function workingRunIds(stack: readonly Frame[]): ReadonlySet<string> {
  return new Set(
    stack.flatMap((f) =>
      f.type === 'agent' && f.status === 'working' && f.run_id ? [f.run_id] : [],
    ),
  );
}
