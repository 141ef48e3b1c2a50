import type { SubAgent } from '../assistant/index.js';
import type { TurnContext } from './context.js';
import type { AgentFrame, StepFrame } from './frames.js';

/**
 * Hands the conversation to a sub agent on behalf of the step a frame is at: the agent runs on
 * top of the stack, and the frame goes on from its step once the agent has finished.
 */
export function startAgent(
  ctx: TurnContext,
  frame: StepFrame,
  agent: SubAgent,
  exitIf?: readonly string[],
): 'yield' {
  const agentFrame: AgentFrame = {
    type: 'agent',
    frame_id: ctx.turn.newFrameId(),
    agent_id: agent.name,
    flow_id: frame.flow_id,
    step_id: frame.step_id,
    status: 'running',
    invocation: 'start',
    ...(exitIf ? { exit_if: [...exitIf] } : {}),
  };
  ctx.turn.push(agentFrame);
  ctx.turn.emit({ event: 'agent_started', agent_id: agent.name, flow_id: frame.flow_id });
  return 'yield';
}
