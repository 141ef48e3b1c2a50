import { conditionHolds, isPatternId, PATTERN } from '../assistant/index.js';
import { collectedSlot, typeRejectionOf } from './collect.js';
import { coerceSlotValue } from './commands/coerce.js';
import type { Command } from './commands/command.js';
import type { TurnContext } from './context.js';
import { flowName, interruptTopFlow, startFlow, startPattern } from './frameLifecycle.js';
import { type FlowFrame, isStepFrame, MAX_HELD_MESSAGES } from './frames.js';
import type { BotMessage } from './responses/botMessage.js';
import { resumeFrames } from './resume.js';
import {
  activeAgent,
  activityOf,
  agentOf,
  currentActivity,
  topFlowFrame,
  workingAgent,
} from './stackQueries.js';

/** Commands that take the conversation away from an active sub agent. */
const LEAVES_AGENT: ReadonlySet<Command['command']> = new Set([
  'start flow',
  'cancel flow',
  'disambiguate flows',
  'offtopic reply',
  'hand over',
  'repeat message',
  'provide info',
  'skip question',
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
  const valid = commands.flatMap((c) => applicable(ctx, c));
  const working = workingAgent(ctx.turn.stack);
  if (working && !valid.some((c) => c.command === 'cancel flow')) {
    // The agent's run holds the conversation until it reports back; the message waits for it.
    const name = ctx.model.assistant.agents[working.agent_id]?.name ?? working.agent_id;
    if (ctx.turn.userMessage !== undefined) {
      const message = {
        text: ctx.turn.userMessage,
        ...(ctx.turn.userMetadata ? { metadata: { ...ctx.turn.userMetadata } } : {}),
      };
      ctx.turn.update({
        ...working,
        held: [...(working.held ?? []), message].slice(-MAX_HELD_MESSAGES),
      });
    }
    startPattern(ctx, PATTERN.externalAgentProcessing, { agent_name: name });
    return;
  }
  const agent = activeAgent(ctx.turn.stack);
  if (agent && !valid.some((c) => LEAVES_AGENT.has(c.command))) {
    applySlots(ctx, valid, { corrections: false });
    const restart = valid.some((c) => c.command === 'restart agent');
    ctx.turn.update({ ...agent, status: 'running', invocation: restart ? 'restart' : 'continue' });
    return;
  }
  const proposed = valid.filter(
    (c) => c.command !== 'continue agent' && c.command !== 'restart agent',
  );
  // With no flow running, a slot that a flow asks for is set only for a flow that starts with
  // it (or one that flow calls): else it would wait, unseen, and that flow would later skip its
  // question. A message left with nothing to do is answered as not handled. Other slots (a
  // button's controlled slot, say) are set as in Rasa.
  const idle = !ctx.turn.stack.some(isStepFrame);
  const starting = proposed.flatMap((c) => (c.command === 'start flow' ? [c.flow] : []));
  const acting = idle
    ? proposed.filter(
        (c) =>
          c.command !== 'set slot' ||
          !ctx.model.askedSlots.has(c.name) ||
          collectedBy(ctx, starting, c.name),
      )
    : proposed;
  const correction = applySlots(ctx, acting, { corrections: true });
  // Patterns are pushed after the flows so that they run first: their messages come first.
  const patterns: (() => void)[] = [];
  let handled = acting.some((c) => c.command === 'set slot');
  // The cancel pattern's action_cancel_flow removes what the user cancels, as in Rasa: an
  // override may ask first, or decide not to.
  const cancelled = acting.some((c) => c.command === 'cancel flow')
    ? currentActivity(ctx.turn.stack)
    : [];
  const cancelledFlow = cancelled.find((f) => f.type === 'flow');
  if (cancelledFlow) {
    handled = true;
    patterns.push(() =>
      startPattern(ctx, PATTERN.cancelFlow, {
        canceled_name: flowName(ctx, cancelledFlow.flow_id),
        canceled_frames: cancelled.map((f) => f.frame_id),
      }),
    );
  }
  const starts = acting.flatMap((c) => (c.command === 'start flow' ? [c.flow] : []));
  if (starts.length > 0) {
    handled = true;
    startFlows(ctx, starts, new Set(cancelled.map((f) => f.frame_id)));
  }
  for (const command of acting) {
    const pattern = patternFor(ctx, command, previousBotMessages);
    if (pattern) {
      handled = true;
      patterns.push(pattern);
    }
  }
  if (correction) {
    patterns.push(() => startPattern(ctx, PATTERN.correction, correctionContext(correction)));
  }
  if (!handled) {
    const reason = commands.find((c) => c.command === 'cannot handle');
    patterns.push(() =>
      startPattern(ctx, PATTERN.cannotHandle, {
        reason:
          reason?.command === 'cannot handle' ? reason.reason : 'no command applies to the message',
      }),
    );
  }
  for (const push of patterns.reverse()) push();
}

function patternFor(
  ctx: TurnContext,
  command: Command,
  previousBotMessages: readonly BotMessage[],
): (() => void) | undefined {
  switch (command.command) {
    case 'disambiguate flows':
      return () =>
        startPattern(ctx, PATTERN.clarification, {
          names: command.flows.map((id) => flowName(ctx, id)),
          flow_ids: command.flows,
        });
    case 'provide info':
      return () => startPattern(ctx, PATTERN.search);
    case 'skip question':
      return () => startPattern(ctx, PATTERN.skipQuestion);
    case 'offtopic reply':
      return () => startPattern(ctx, PATTERN.chitchat);
    case 'hand over':
      return () => startPattern(ctx, PATTERN.humanHandoff);
    case 'repeat message':
      return () => startPattern(ctx, PATTERN.repeatBotMessages, { messages: previousBotMessages });
    case 'cannot handle':
      return () => startPattern(ctx, PATTERN.cannotHandle, { reason: command.reason });
    default:
      return undefined;
  }
}

/** Whether one of `flows`, or a flow one of them calls, has a collect step for the slot. */
function collectedBy(ctx: TurnContext, flows: readonly string[], slot: string): boolean {
  const seen = new Set<string>();
  const pending = [...flows];
  for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
    if (seen.has(id)) continue;
    seen.add(id);
    const graph = ctx.model.flows.get(id);
    if (graph?.collectSteps.has(slot)) return true;
    pending.push(...(graph?.calledFlows ?? []));
  }
  return false;
}

/**
 * Keeps the commands that can apply: known, startable flows; known slots with values they can
 * take. Ambiguity between flows is narrowed to those the user could start.
 */
function applicable(ctx: TurnContext, command: Command): Command[] {
  switch (command.command) {
    case 'start flow':
      return startable(ctx, command.flow) ? [command] : [];
    case 'set slot':
      return slotValue(ctx, command.name, command.value) ? [command] : [];
    case 'disambiguate flows': {
      const flows = command.flows.filter((f) => startable(ctx, f));
      if (flows.length === 0) return [];
      if (flows.length === 1) return [{ command: 'start flow', flow: flows[0] as string }];
      return [{ ...command, flows }];
    }
    case 'restart agent': {
      // Rasa names the agent to restart; only the active one can start over here.
      const named = command.agent;
      return named === undefined || activeAgent(ctx.turn.stack)?.agent_id === named
        ? [command]
        : [];
    }
    default:
      return [command];
  }
}

/**
 * A project flow whose `if` guard holds, or a pattern an intent triggers (`/session_start`,
 * `/restart`).
 */
function startable(ctx: TurnContext, flowId: string): boolean {
  const graph = ctx.model.flows.get(flowId);
  if (!graph) return false;
  if (isPatternId(flowId)) return (graph.definition.nlu_trigger ?? []).length > 0;
  const guard = graph.definition.if;
  if (guard === false) return false;
  return typeof guard !== 'string' || conditionHolds(guard, { slots: ctx.turn.slots });
}

/** A correction waiting for `action_correct_flow_slot`: the new values and where to go back. */
interface Correction {
  readonly slots: Record<string, unknown>;
  readonly previous: Record<string, unknown>;
  readonly frameId: string;
  readonly flowId: string;
  readonly stepId: string;
}

/**
 * Sets the slots the commands name. With `corrections`, a new value for a slot that the current
 * flow collected before its current step is a correction: it is not set now but held for the
 * correction pattern, whose `action_correct_flow_slot` sets it and moves the flow back to that
 * collect step, so that what followed runs again.
 */
function applySlots(
  ctx: TurnContext,
  commands: readonly Command[],
  options: { corrections: boolean },
): Correction | undefined {
  let correction: Correction | undefined;
  for (const command of commands) {
    if (command.command !== 'set slot') continue;
    const coerced = slotValue(ctx, command.name, command.value);
    if (!coerced) continue;
    if (coerced.refused) {
      ctx.turn.setSlot(command.name, coerced.value);
      continue;
    }
    const previous = ctx.turn.slots[command.name];
    if (
      options.corrections &&
      previous !== null &&
      previous !== undefined &&
      previous !== coerced.value
    ) {
      const target = correctionTarget(ctx, command.name);
      if (target && (!correction || correction.frameId === target.frameId)) {
        const earlier = correction && earlierStep(ctx, correction, target) ? correction : target;
        correction = {
          ...earlier,
          slots: { ...correction?.slots, [command.name]: coerced.value },
          previous: { ...correction?.previous, [command.name]: previous },
        };
        continue;
      }
    }
    ctx.turn.setSlot(command.name, coerced.value);
  }
  return correction;
}

/**
 * The value a `set slot` command gives its slot, or undefined when the slot cannot take it. A
 * value not of the type of the slot being collected is kept as it is (`refused`): the collect
 * step answers it with the type's rejection and asks again, as Rasa's
 * `action_run_slot_rejections` does, instead of the message counting for nothing.
 */
function slotValue(
  ctx: TurnContext,
  name: string,
  value: unknown,
): { value: unknown; refused?: true } | undefined {
  const slot = ctx.model.slots[name];
  if (!slot) return undefined;
  const coerced = coerceSlotValue(value, slot);
  if (coerced.ok) return { value: coerced.value };
  const refused = collectedSlot(ctx) === name && typeRejectionOf(value, slot) !== undefined;
  return refused ? { value, refused } : undefined;
}

/** Whether `a` goes back further in its flow than `b`. */
function earlierStep(
  ctx: TurnContext,
  a: { readonly flowId: string; readonly stepId: string },
  b: { readonly flowId: string; readonly stepId: string },
): boolean {
  const order = ctx.model.flows.get(a.flowId)?.order;
  return (order?.get(a.stepId) ?? Infinity) <= (order?.get(b.stepId) ?? Infinity);
}

/**
 * Where the current flow collected `slot` before its current step; undefined when changing the
 * slot is not a correction.
 */
function correctionTarget(
  ctx: TurnContext,
  slot: string,
): { frameId: string; flowId: string; stepId: string } | undefined {
  const flow = topFlowFrame(ctx.turn.stack);
  const top = ctx.turn.top();
  // Not while an agent or a called flow works above the flow.
  if (!flow || (top?.type !== 'pattern' && top?.frame_id !== flow.frame_id)) return undefined;
  const graph = ctx.model.flows.get(flow.flow_id);
  const current = graph?.order.get(flow.step_id);
  if (!graph || current === undefined) return undefined;
  const earlier = (graph.collectSteps.get(slot) ?? []).filter(
    (id) => (graph.order.get(id) ?? Infinity) < current,
  );
  const stepId = earlier[earlier.length - 1];
  return stepId === undefined
    ? undefined
    : { frameId: flow.frame_id, flowId: flow.flow_id, stepId };
}

/** The correction pattern's context, with the keys Rasa's pattern and responses read. */
function correctionContext(correction: Correction): Record<string, unknown> {
  const entries = Object.entries(correction.slots);
  return {
    is_reset_only: entries.every(([, value]) => value === null),
    corrected_slots: correction.slots,
    new_slot_values: entries.map(([, value]) => value),
    previous_slot_values: Object.values(correction.previous),
    reset_flow_id: correction.flowId,
    reset_step_id: correction.stepId,
    reset_frame_id: correction.frameId,
    corrected_slots_text: entries.map(([name, value]) => `${name} to ${String(value)}`).join(', '),
  };
}

/**
 * Starts flows the user asked for: the first named runs first. The flow the user was in is
 * interrupted once; a flow already on the stack is brought back instead of started again.
 */
function startFlows(
  ctx: TurnContext,
  flowIds: readonly string[],
  cancelling: ReadonlySet<string>,
): void {
  for (const pattern of flowIds.filter(isPatternId)) startPattern(ctx, pattern);
  flowIds = flowIds.filter((id) => !isPatternId(id));
  const found = topFlowFrame(ctx.turn.stack);
  // A flow the user is cancelling in the same message is not interrupted, it is ending.
  const top = found && !cancelling.has(found.frame_id) ? found : undefined;
  const fresh = flowIds.filter((id) => id !== top?.flow_id);
  if (top?.flow_id !== undefined && flowIds.includes(top.flow_id) && top.interrupted) {
    resumeFlow(ctx, top);
  }
  if (fresh.length === 0) return;
  const inActivity = new Set(currentActivity(ctx.turn.stack).map((f) => f.frame_id));
  if (top && !fresh.every((id) => isCallerOfTop(ctx, id, inActivity))) interruptTopFlow(ctx);
  for (const flowId of [...fresh].reverse()) {
    const existing = ctx.turn.stack.find(
      (f): f is FlowFrame => f.type === 'flow' && f.flow_id === flowId,
    );
    if (existing && inActivity.has(existing.frame_id)) continue;
    if (existing) {
      for (const frame of activityOf(ctx.turn.stack, existing.frame_id))
        ctx.turn.raise(frame.frame_id);
      resumeFlow(ctx, existing);
    } else {
      startFlow(ctx, flowId, top ? 'interrupt' : 'regular');
    }
  }
}

function isCallerOfTop(ctx: TurnContext, flowId: string, inActivity: ReadonlySet<string>): boolean {
  return ctx.turn.stack.some(
    (f) => f.type === 'flow' && f.flow_id === flowId && inActivity.has(f.frame_id),
  );
}

/** Brings an interrupted flow (and its agent) back: patterns above it that offered it are dropped. */
function resumeFlow(ctx: TurnContext, flow: FlowFrame): void {
  const stack = ctx.turn.stack;
  const index = stack.findIndex((f) => f.frame_id === flow.frame_id);
  for (const frame of stack.slice(index + 1)) {
    if (frame.type === 'pattern' && frame.flow_id === PATTERN.continueInterrupted) {
      ctx.turn.remove(frame.frame_id);
      ctx.turn.emit({ event: 'flow_completed', flow_id: frame.flow_id, step_id: frame.step_id });
    }
  }
  const current = ctx.turn.stack.find((f) => f.frame_id === flow.frame_id);
  if (current?.type !== 'flow') return;
  resumeFrames(ctx, current, agentOf(ctx.turn.stack, current));
}
