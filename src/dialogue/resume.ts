import type { TurnContext } from './context.js';
import type { AgentFrame, FlowFrame } from './frames.js';

/** Goes back to an interrupted flow and its interrupted agent, which runs again as resumed. */
export function resumeFrames(ctx: TurnContext, flow?: FlowFrame, agent?: AgentFrame): void {
  if (flow?.interrupted) {
    ctx.turn.update({ ...flow, interrupted: false });
    ctx.turn.emit({ event: 'flow_resumed', flow_id: flow.flow_id, step_id: flow.step_id });
  }
  if (agent?.status === 'interrupted') {
    ctx.turn.update({ ...agent, status: 'running', invocation: 'resume' });
    ctx.turn.emit({ event: 'agent_resumed', agent_id: agent.agent_id, flow_id: agent.flow_id });
  }
}

/** Goes back to the flow (and agent) a continue-interrupted pattern names, if still waiting. */
export function resumeInterrupted(ctx: TurnContext, data: Readonly<Record<string, unknown>>): void {
  const flow = ctx.turn.stack.find((f) => f.frame_id === data.interrupted_flow_frame);
  const agent = ctx.turn.stack.find((f) => f.frame_id === data.interrupted_agent_frame);
  resumeFrames(
    ctx,
    flow?.type === 'flow' ? flow : undefined,
    agent?.type === 'agent' ? agent : undefined,
  );
}
