import type { CallStep, CollectStep } from '../assistant/index.js';
import { askForSlot, checkAnswer } from './collect.js';
import type { TurnContext } from './context.js';
import type { CompiledStep } from './flowGraph.js';
import { resetFlowSlots, startFlow } from './frameLifecycle.js';
import type { AgentFrame, StepFrame } from './frames.js';
import { callMcpTool } from './mcpCall.js';
import type { StepOutcome } from './stepOutcome.js';
import { runActionStep } from './stepTemplates.js';

/** Runs a step the frame has just reached. */
export async function executeStep(
  ctx: TurnContext,
  frame: StepFrame,
  compiled: CompiledStep,
): Promise<StepOutcome> {
  switch (compiled.kind) {
    case 'action':
      return runActionStep(ctx, frame, compiled.step.action);
    case 'collect': {
      const { step } = compiled;
      const filled =
        ctx.turn.slots[step.collect] !== null && ctx.turn.slots[step.collect] !== undefined;
      // A value given before the flow got here is checked like an answer.
      if (filled && !step.ask_before_filling) return revisitCollect(ctx, frame, step);
      // Asking again means the old answer no longer counts.
      if (filled) ctx.turn.setSlot(step.collect, null);
      return askForSlot(ctx, frame, step);
    }
    case 'set_slots':
      for (const entry of compiled.step.set_slots) {
        for (const [name, value] of Object.entries(entry)) ctx.turn.setSlot(name, value);
      }
      return 'advance';
    case 'link':
      ctx.turn.remove(frame.frame_id);
      ctx.turn.emit({ event: 'flow_completed', flow_id: frame.flow_id, step_id: frame.step_id });
      resetFlowSlots(ctx, frame.flow_id);
      startFlow(ctx, compiled.step.link, 'link');
      return 'yield';
    case 'call':
      return call(ctx, frame, compiled.step);
    case 'noop':
      return 'advance';
    default:
      return unknownKind(compiled);
  }
}

/** Runs the step a frame stopped at, when the frame is on top again. */
export async function revisitStep(
  ctx: TurnContext,
  frame: StepFrame,
  compiled: CompiledStep,
): Promise<StepOutcome> {
  // Calls come back here when the flow or agent they started has finished.
  return compiled.kind === 'collect' ? revisitCollect(ctx, frame, compiled.step) : 'advance';
}

async function revisitCollect(
  ctx: TurnContext,
  frame: StepFrame,
  step: CollectStep,
): Promise<StepOutcome> {
  const answer = await checkAnswer(ctx, frame, step);
  if (answer === 'accepted') return 'advance';
  if (answer === 'failed') return 'yield';
  return askForSlot(ctx, frame, step, { again: answer === 'rejected' });
}

async function call(ctx: TurnContext, frame: StepFrame, step: CallStep): Promise<StepOutcome> {
  if (step.mcp_server !== undefined) return callMcpTool(ctx, frame, step);
  const agent = ctx.model.assistant.agents[step.call];
  if (!agent) {
    startFlow(ctx, step.call, 'call');
    return 'yield';
  }
  const agentFrame: AgentFrame = {
    type: 'agent',
    frame_id: ctx.turn.newFrameId(),
    agent_id: agent.name,
    flow_id: frame.flow_id,
    step_id: frame.step_id,
    status: 'running',
    invocation: 'start',
    ...(step.exit_if ? { exit_if: [...step.exit_if] } : {}),
  };
  ctx.turn.push(agentFrame);
  ctx.turn.emit({ event: 'agent_started', agent_id: agent.name, flow_id: frame.flow_id });
  return 'yield';
}

function unknownKind(step: never): never {
  throw new Error(`no way to run the step ${JSON.stringify(step)}`);
}
