import type { TurnContext } from './context.js';

/** Goes back to the flow (and agent) a continue-interrupted pattern names, if still waiting. */
export function resumeInterrupted(ctx: TurnContext, data: Readonly<Record<string, unknown>>): void {
  const flow = ctx.turn.stack.find((f) => f.frame_id === data.interrupted_flow_frame);
  if (flow?.type === 'flow' && flow.interrupted) {
    ctx.turn.update({ ...flow, interrupted: false });
    ctx.turn.emit({ event: 'flow_resumed', flow_id: flow.flow_id, step_id: flow.step_id });
  }
  const agent = ctx.turn.stack.find((f) => f.frame_id === data.interrupted_agent_frame);
  if (agent?.type === 'agent' && agent.status === 'interrupted') {
    ctx.turn.update({ ...agent, status: 'running', invocation: 'resume' });
    ctx.turn.emit({ event: 'agent_resumed', agent_id: agent.agent_id, flow_id: agent.flow_id });
  }
}
