import { END, PATTERN } from '../assistant/index.js';
import { runAgentFrame } from './agentFrames.js';
import { joinOptions } from './builtinActions.js';
import type { TurnContext } from './context.js';
import { DialogueExecutionError } from './errors.js';
import type { CompiledStep, Target } from './flowGraph.js';
import { completeStepFrame } from './frameCompletion.js';
import { flowName, moveTo, patternData, startPattern } from './frameLifecycle.js';
import type { AgentFrame, FlowFrame, StepFrame } from './frames.js';
import { START } from './frames.js';
import { flowOf } from './stackQueries.js';
import type { StepOutcome } from './stepOutcome.js';
import { executeStep, revisitStep } from './steps.js';
import { stepConditionHolds } from './stepTemplates.js';

/** Steps one turn may run; more means a flow loops without waiting for the user. */
export const MAX_STEPS_PER_TURN = 500;
/** Messages one turn may say; more means a flow loops, and the user should not get them all. */
export const MAX_MESSAGES_PER_TURN = 100;

/** Runs flows, patterns and agents until the assistant waits for the user (or the stack is empty). */
export async function runUntilSettled(ctx: TurnContext): Promise<void> {
  let steps = 0;
  for (;;) {
    const top = ctx.turn.top();
    if (!top) return;
    if (++steps > MAX_STEPS_PER_TURN) {
      throw new DialogueExecutionError(
        `more than ${MAX_STEPS_PER_TURN} steps in one turn; does a flow loop?`,
      );
    }
    if (ctx.turn.messages.length > MAX_MESSAGES_PER_TURN) {
      throw new DialogueExecutionError(
        `more than ${MAX_MESSAGES_PER_TURN} messages in one turn; does a flow loop?`,
      );
    }
    if (top.type === 'agent') {
      if (!(await advanceAgent(ctx, top))) return;
      continue;
    }
    if (top.type === 'flow' && top.interrupted) {
      offerToContinue(ctx, top);
      continue;
    }
    const outcome = await advanceFrame(
      ctx,
      top,
      () => ++steps > MAX_STEPS_PER_TURN || ctx.turn.messages.length > MAX_MESSAGES_PER_TURN,
    );
    if (outcome === 'wait') return;
  }
}

/** True when the loop should go on (the agent finished or something was pushed). */
async function advanceAgent(ctx: TurnContext, frame: AgentFrame): Promise<boolean> {
  if (frame.status === 'interrupted') {
    offerToContinue(ctx, flowOf(ctx.turn.stack, frame), frame);
    return true;
  }
  if (frame.status === 'running') return runAgentFrame(ctx, frame);
  // Waiting for the user, or for the agent's background run.
  return false;
}

/**
 * Offers to go back to what a digression interrupted: the flow on top and, when more flows wait
 * below it, those too (the user then names the one to continue), as Rasa's pattern does.
 */
function offerToContinue(ctx: TurnContext, flow: FlowFrame | undefined, agent?: AgentFrame): void {
  const flowId = flow?.flow_id ?? agent?.flow_id ?? '';
  const waiting = ctx.turn.stack
    .filter((f): f is FlowFrame => f.type === 'flow' && f.interrupted === true)
    .reverse();
  const offered = flow ? [flow, ...waiting.filter((f) => f.frame_id !== flow.frame_id)] : waiting;
  const names = offered.map((f) => flowName(ctx, f.flow_id));
  startPattern(ctx, PATTERN.continueInterrupted, {
    previous_flow_name: flowName(ctx, flowId),
    interrupted_flow_options: names.length > 0 ? joinOptions(names) : flowName(ctx, flowId),
    interrupted_flows: offered.map((f) => f.flow_id),
    multiple_flows_interrupted: offered.length > 1,
    interrupted_flow_frame: flow?.frame_id,
    interrupted_flow_frames: offered.map((f) => f.frame_id),
    interrupted_agent_frame: agent?.frame_id,
  });
}

type FrameOutcome = 'wait' | 'continue';

/** Runs the steps of the frame on top until it waits, yields to another frame, or ends. */
async function advanceFrame(
  ctx: TurnContext,
  initial: StepFrame,
  overLimit: () => boolean,
): Promise<FrameOutcome> {
  const graph = ctx.model.flows.get(initial.flow_id);
  if (!graph) throw new DialogueExecutionError(`flow "${initial.flow_id}" does not exist`);
  let frame = initial;
  let target: Target;
  if (frame.step_id === START) {
    target = graph.first;
  } else {
    const current = stepOf(graph.steps, frame);
    const revisit = await revisitStep(ctx, frame, current);
    if (revisit !== 'advance') return outcomeOf(revisit);
    target = nextTarget(ctx, current, frame);
  }
  for (;;) {
    if (overLimit())
      throw new DialogueExecutionError(
        `flow "${frame.flow_id}" runs more than ${MAX_STEPS_PER_TURN} steps or says more than ${MAX_MESSAGES_PER_TURN} messages in one turn; does it loop?`,
      );
    if (target === END) {
      completeStepFrame(ctx, frame);
      return 'continue';
    }
    const step = graph.steps.get(target);
    if (!step) throw new DialogueExecutionError(`flow "${frame.flow_id}" has no step "${target}"`);
    frame = moveTo(ctx, frame, step.id);
    const outcome = await executeStep(ctx, frame, step);
    if (outcome !== 'advance') return outcomeOf(outcome);
    target = nextTarget(ctx, step, frame);
  }
}

function outcomeOf(outcome: Exclude<StepOutcome, 'advance'>): FrameOutcome {
  return outcome === 'wait' ? 'wait' : 'continue';
}

function stepOf(steps: ReadonlyMap<string, CompiledStep>, frame: StepFrame): CompiledStep {
  const step = steps.get(frame.step_id);
  if (!step)
    throw new DialogueExecutionError(`flow "${frame.flow_id}" has no step "${frame.step_id}"`);
  return step;
}

/**
 * Where a step goes next: the first branch whose condition holds, or the default. Conditions of
 * a pattern read its context (`context.canceled_name`, or in Jinja `{{context.canceled_name}}`),
 * as they do in Rasa.
 */
export function nextTarget(ctx: TurnContext, step: CompiledStep, frame: StepFrame): Target {
  if (step.next.type === 'static') return step.next.target;
  const scope = { slots: ctx.turn.slots, context: patternData(ctx, frame) };
  return (
    step.next.branches.find((b) => stepConditionHolds(ctx, frame, b.condition, scope))?.target ??
    step.next.otherwise
  );
}
