import type { AgentOutput, SubAgent } from '../assistant/index.js';
import { conditionHolds } from '../assistant/index.js';
import { buildAgentInput } from './agentInput.js';
import type { TurnContext } from './context.js';
import { failCurrentActivity } from './frameLifecycle.js';
import type { AgentFrame } from './frames.js';
import type { AgentPending } from './ports.js';

/** Metadata an agent returns that its next invocation needs (A2A conversation ids). */
const SESSION_KEYS = ['context_id', 'task_id'] as const;
/**
 * Metadata of the agent's latest question only (which A2A status asked it): the answer goes with
 * it, and a later question without one drops it.
 */
const QUESTION_KEY = 'question_id';

/**
 * Invokes the sub agent of a running agent frame and applies what it returns. True when the
 * turn goes on (the agent finished or failed), false when it waits (for the user, or for the
 * agent's run to report back).
 */
export async function runAgentFrame(ctx: TurnContext, frame: AgentFrame): Promise<boolean> {
  const agent = ctx.model.assistant.agents[frame.agent_id];
  if (!agent) {
    failCurrentActivity(ctx, `sub agent ${frame.agent_id} does not exist`);
    return true;
  }
  if (exitConditionsHold(ctx, frame)) {
    completeAgent(ctx, frame);
    return true;
  }
  const result = await invoke(ctx, agent, frame);
  if (result.status === 'pending') {
    const { invocation: _started, ...rest } = frame;
    ctx.turn.update({ ...rest, status: 'working', run_id: result.runId });
    return false;
  }
  return applyAgentOutput(ctx, frame, result);
}

/**
 * Applies an agent's output to its frame: slot events, then per status: wait for the user,
 * continue the flow, or cancel it with the internal-error pattern. True when the turn goes on.
 */
export function applyAgentOutput(
  ctx: TurnContext,
  frame: AgentFrame,
  output: AgentOutput,
): boolean {
  for (const event of output.events ?? []) ctx.turn.setSlot(event.name, event.value);
  switch (output.status) {
    case 'completed':
      if (output.responseMessage) ctx.turn.say({ text: output.responseMessage });
      completeAgent(ctx, frame);
      return true;
    case 'input_required': {
      // A task-specific agent is done once its exit conditions hold, whatever it says.
      if (exitConditionsHold(ctx, frame)) {
        completeAgent(ctx, frame);
        return true;
      }
      if (output.responseMessage) ctx.turn.say({ text: output.responseMessage });
      const { invocation: _done, run_id: _run, held: _held, ...rest } = frame;
      const session = sessionOf(output, frame);
      ctx.turn.update({
        ...rest,
        status: 'input_required',
        ...(output.responseMessage ? { last_message: output.responseMessage } : {}),
        ...(session ? { session } : {}),
      });
      return false;
    }
    case 'fatal_error':
    case 'recoverable_error':
      failCurrentActivity(ctx, output.errorMessage ?? `sub agent ${frame.agent_id} failed`);
      return true;
  }
}

/**
 * Invokes the agent once. Retrying is the runtime's business (its one retry policy runs failed
 * steps again as delayed jobs); an error that still reaches the dialogue ends the agent's flow.
 */
async function invoke(
  ctx: TurnContext,
  agent: SubAgent,
  frame: AgentFrame,
): Promise<AgentOutput | AgentPending> {
  try {
    return await ctx.ports.agents.invoke({
      agent,
      frameId: frame.frame_id,
      input: buildAgentInput(ctx, frame),
      ...(frame.exit_if ? { exitIf: frame.exit_if } : {}),
      resumed: frame.invocation === 'resume',
      restarted: frame.invocation === 'restart',
      ...(ctx.signal ? { signal: ctx.signal } : {}),
      ...(ctx.deadline !== undefined ? { deadline: ctx.deadline } : {}),
    });
  } catch (error) {
    if (ctx.signal?.aborted) throw error;
    return {
      id: frame.frame_id,
      status: 'fatal_error',
      errorMessage: error instanceof Error ? error.message : String(error),
    };
  }
}

function exitConditionsHold(ctx: TurnContext, frame: AgentFrame): boolean {
  if (!frame.exit_if || frame.exit_if.length === 0) return false;
  const scope = { slots: ctx.turn.slots };
  return frame.exit_if.every((condition) => conditionHolds(condition, scope));
}

function completeAgent(ctx: TurnContext, frame: AgentFrame): void {
  ctx.turn.remove(frame.frame_id);
  ctx.turn.emit({ event: 'agent_completed', agent_id: frame.agent_id, flow_id: frame.flow_id });
}

function sessionOf(output: AgentOutput, frame: AgentFrame): Record<string, string> | undefined {
  const { [QUESTION_KEY]: _earlier, ...session }: Record<string, string> = { ...frame.session };
  for (const key of [...SESSION_KEYS, QUESTION_KEY]) {
    const value = output.metadata?.[key];
    if (typeof value === 'string') session[key] = value;
  }
  return Object.keys(session).length > 0 ? session : undefined;
}
