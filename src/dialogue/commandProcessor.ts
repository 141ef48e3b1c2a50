import { coerceSlotValue } from './commands/coerce.js';
import type { Command } from './commands/command.js';
import type { TurnContext } from './context.js';
import {
  cancelCurrentActivity,
  flowName,
  interruptTopFlow,
  moveTo,
  startFlow,
  startPattern,
} from './frameLifecycle.js';
import type { FlowFrame, Frame } from './frames.js';
import { isPatternId, PATTERN } from './patterns/builtins.js';
import type { BotMessage } from './responses/botMessage.js';
import { activeAgent, agentOf, topFlowFrame } from './stackQueries.js';

/** Commands that take the conversation away from an active sub agent. */
const LEAVES_AGENT: ReadonlySet<Command['command']> = new Set([
  'start flow',
  'cancel flow',
  'disambiguate flows',
  'offtopic reply',
  'hand over',
  'repeat message',
  'cannot handle',
]);

/**
 * Applies a turn's commands to the conversation: slots (and corrections), cancellations, new
 * or resumed flows, and the patterns that answer them. A message for an active sub agent goes
 * to it unless the commands lead elsewhere.
 */
export function processCommands(
  ctx: TurnContext,
  commands: readonly Command[],
  previousBotMessages: readonly BotMessage[],
): void {
  const valid = commands.filter((c) => isApplicable(ctx, c));
  const agent = activeAgent(ctx.turn.stack);
  if (agent && !valid.some((c) => LEAVES_AGENT.has(c.command))) {
    applySlots(ctx, valid, { corrections: false });
    const restart = valid.some((c) => c.command === 'restart agent');
    ctx.turn.update({ ...agent, status: 'running', invocation: restart ? 'restart' : 'continue' });
    return;
  }
  const acting = valid.filter(
    (c) => c.command !== 'continue agent' && c.command !== 'restart agent',
  );
  if (acting.length === 0) {
    const reason = commands.find((c) => c.command === 'cannot handle');
    startPattern(ctx, PATTERN.cannotHandle, {
      reason:
        reason?.command === 'cannot handle' ? reason.reason : 'no command applies to the message',
    });
    return;
  }

  const corrected = applySlots(ctx, acting, { corrections: true });
  // Patterns are pushed after the flows so that they run first: their messages come first.
  const patterns: (() => void)[] = [];
  if (acting.some((c) => c.command === 'cancel flow')) {
    const name = cancelCurrentActivity(ctx);
    if (name !== undefined)
      patterns.push(() => startPattern(ctx, PATTERN.cancelFlow, { canceled_name: name }));
  }
  const starts = acting.flatMap((c) => (c.command === 'start flow' ? [c.flow] : []));
  for (const flowId of [...starts].reverse()) startOrResume(ctx, flowId);
  for (const command of acting) {
    switch (command.command) {
      case 'disambiguate flows':
        patterns.push(() =>
          startPattern(ctx, PATTERN.clarification, {
            names: command.flows,
            clarification_options: command.flows.map((id) => flowName(ctx, id)).join(', '),
          }),
        );
        break;
      case 'offtopic reply':
        patterns.push(() => startPattern(ctx, PATTERN.chitchat));
        break;
      case 'hand over':
        patterns.push(() => startPattern(ctx, PATTERN.humanHandoff));
        break;
      case 'repeat message':
        patterns.push(() =>
          startPattern(ctx, PATTERN.repeatBotMessages, { messages: previousBotMessages }),
        );
        break;
      case 'cannot handle':
        patterns.push(() => startPattern(ctx, PATTERN.cannotHandle, { reason: command.reason }));
        break;
      default:
        break;
    }
  }
  if (Object.keys(corrected).length > 0) {
    patterns.push(() =>
      startPattern(ctx, PATTERN.correction, {
        corrected_slots: corrected,
        corrected_slots_text: Object.entries(corrected)
          .map(([name, value]) => `${name} to ${String(value)}`)
          .join(', '),
      }),
    );
  }
  for (const push of patterns.reverse()) push();
}

/** Drops commands that name unknown flows or slots, or values a slot cannot take. */
function isApplicable(ctx: TurnContext, command: Command): boolean {
  switch (command.command) {
    case 'start flow':
      return ctx.model.flows.has(command.flow) && !isPatternId(command.flow);
    case 'set slot': {
      const slot = ctx.model.slots[command.name];
      return slot !== undefined && coerceSlotValue(command.value, slot).ok;
    }
    case 'disambiguate flows':
      return command.flows.filter((f) => ctx.model.flows.has(f)).length > 0;
    default:
      return true;
  }
}

/**
 * Sets the slots the commands name. With `corrections`, changing a slot that the current flow
 * already collected moves the flow back to that collect step, so what followed runs again.
 */
function applySlots(
  ctx: TurnContext,
  commands: readonly Command[],
  options: { corrections: boolean },
): Record<string, unknown> {
  const corrected: Record<string, unknown> = {};
  for (const command of commands) {
    if (command.command !== 'set slot') continue;
    const slot = ctx.model.slots[command.name];
    if (!slot) continue;
    const coerced = coerceSlotValue(command.value, slot);
    if (!coerced.ok) continue;
    const previous = ctx.turn.slots[command.name];
    if (
      options.corrections &&
      previous !== null &&
      previous !== undefined &&
      previous !== coerced.value
    ) {
      if (correctFlow(ctx, command.name)) corrected[command.name] = coerced.value;
    }
    ctx.turn.setSlot(command.name, coerced.value);
  }
  return corrected;
}

/** Moves the current flow back to where it collected `slot`; false when it is not a correction. */
function correctFlow(ctx: TurnContext, slot: string): boolean {
  const flow = topFlowFrame(ctx.turn.stack);
  if (!flow || agentOf(ctx.turn.stack, flow)) return false;
  const graph = ctx.model.flows.get(flow.flow_id);
  const collectStep = graph?.collectSteps.get(slot)?.[0];
  const current = graph?.steps.get(flow.step_id)?.step;
  if (!collectStep || (current && 'collect' in current && current.collect === slot)) return false;
  moveTo(ctx, flow, collectStep);
  return true;
}

/** Starts a flow as a digression, or brings it back if it is already on the stack. */
function startOrResume(ctx: TurnContext, flowId: string): void {
  const top = topFlowFrame(ctx.turn.stack);
  if (top?.flow_id === flowId) return;
  const existing = ctx.turn.stack.find(
    (f): f is FlowFrame => f.type === 'flow' && f.flow_id === flowId,
  );
  if (top) interruptTopFlow(ctx);
  if (!existing) {
    startFlow(ctx, flowId, top ? 'interrupt' : 'regular');
    return;
  }
  const agent = agentOf(ctx.turn.stack, existing);
  const moving: Frame[] = agent ? [existing, agent] : [existing];
  for (const frame of moving) ctx.turn.raise(frame.frame_id);
  ctx.turn.update({ ...existing, interrupted: false });
  ctx.turn.emit({ event: 'flow_resumed', flow_id: existing.flow_id, step_id: existing.step_id });
  if (agent?.status === 'interrupted') {
    ctx.turn.update({ ...agent, status: 'running', invocation: 'resume' });
    ctx.turn.emit({ event: 'agent_resumed', agent_id: agent.agent_id, flow_id: agent.flow_id });
  }
}
