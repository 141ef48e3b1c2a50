import type { CallStep } from '../assistant/index.js';
import { evaluateExpression } from '../prompts/expression.js';
import { isTransient, retryAfterOf } from '../resilience/index.js';
import type { TurnContext } from './context.js';
import { ToolUnavailableError } from './errors.js';
import { failCurrentActivity } from './frameLifecycle.js';
import type { StepFrame } from './frames.js';
import type { StepOutcome } from './stepOutcome.js';

/** The longest failure reason of a tool call kept. */
const MAX_REASON = 500;

/**
 * Calls an MCP tool from a flow: slot values in as arguments, expressions over `result` out into
 * slots. A failed call ends the flow with the internal-error pattern.
 */
export async function callMcpTool(
  ctx: TurnContext,
  frame: StepFrame,
  step: CallStep,
): Promise<StepOutcome> {
  const mapping = step.mapping ?? { input: [], output: [] };
  const args = Object.fromEntries(
    mapping.input.map(({ param, slot }) => [param, ctx.turn.slots[slot] ?? null]),
  );
  let failure: string | undefined;
  try {
    const result = await ctx.ports.mcp.callTool({
      serverName: step.mcp_server ?? '',
      toolName: step.call,
      arguments: args,
      senderId: ctx.turn.senderId,
      flowId: frame.flow_id,
      stepId: frame.step_id,
      slots: ctx.turn.slots,
      callKey: [ctx.callKey ?? '', frame.frame_id, frame.step_id, ctx.turn.nextToolCall()].join(
        '|',
      ),
      ...(ctx.signal ? { signal: ctx.signal } : {}),
      ...(ctx.deadline !== undefined ? { deadline: ctx.deadline } : {}),
    });
    if (result.isError) {
      failure = `tool ${step.call} on ${step.mcp_server} returned an error`;
    } else {
      for (const { slot, value } of mapping.output) {
        ctx.turn.setSlot(slot, evaluateExpression(value, { result }));
      }
    }
  } catch (error) {
    if (ctx.signal?.aborted) throw error;
    // Kept in the conversation's state as the error pattern's reason: short, whatever the port said.
    const reason = (error instanceof Error ? error.message : String(error)).slice(0, MAX_REASON);
    failure = `tool ${step.call} on ${step.mcp_server} failed: ${reason}`;
    if (ctx.retryUnavailable && isTransient(error)) {
      throw new ToolUnavailableError(failure, retryAfterOf(error), { cause: error });
    }
  }
  if (failure === undefined) return 'advance';
  failCurrentActivity(ctx, failure);
  return 'yield';
}
