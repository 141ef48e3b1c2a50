import type { TurnContext } from './context.js';
import { failCurrentActivity } from './frameLifecycle.js';
import type { StepFrame } from './frames.js';
import type { StepOutcome } from './steps.js';

/**
 * Runs a custom action of the project. An unknown action or one that throws ends the current
 * flow with the internal-error pattern instead of failing the turn.
 */
export async function runCustomAction(
  ctx: TurnContext,
  frame: StepFrame,
  name: string,
): Promise<StepOutcome> {
  if (!ctx.ports.actions.has(name)) {
    failCurrentActivity(ctx, `unknown action ${name}`);
    return 'yield';
  }
  ctx.turn.emit({ event: 'action', name });
  try {
    const result = await ctx.ports.actions.run(name, {
      senderId: ctx.turn.senderId,
      slots: ctx.turn.slots,
      latestMessage: ctx.turn.userMessage,
      flowId: frame.flow_id,
      stepId: frame.step_id,
      ...(ctx.signal ? { signal: ctx.signal } : {}),
      ...(ctx.deadline !== undefined ? { deadline: ctx.deadline } : {}),
    });
    for (const [slot, value] of Object.entries(result.slots ?? {})) ctx.turn.setSlot(slot, value);
    for (const message of result.messages ?? []) ctx.turn.say(message);
    return 'advance';
  } catch (error) {
    failCurrentActivity(
      ctx,
      `action ${name} failed: ${error instanceof Error ? error.message : String(error)}`,
    );
    return 'yield';
  }
}
