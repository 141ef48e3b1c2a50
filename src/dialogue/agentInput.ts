import { type AgentInput, type AgentInputSlot, BUILTIN_SLOTS } from '../assistant/index.js';
import type { TurnContext } from './context.js';
import type { AgentFrame } from './frames.js';
import type { HistoryEntry } from './state.js';

/** A transcript of recent messages, one `USER:` or `AI:` line each. */
export function transcript(history: readonly HistoryEntry[]): string {
  return history.map((m) => `${m.role === 'user' ? 'USER' : 'AI'}: ${m.text}`).join('\n');
}

/**
 * What a sub agent receives: the message, the project's slots (not the patterns'), recent
 * history and metadata.
 */
export function buildAgentInput(ctx: TurnContext, frame: AgentFrame): AgentInput {
  const state = ctx.turn.snapshot();
  // The project's slots; the patterns' own (such as `continue_interrupted`) are not the agent's.
  const slots: AgentInputSlot[] = Object.entries(ctx.model.assistant.slots)
    .filter(([name]) => !(name in BUILTIN_SLOTS))
    .map(([name, slot]) => ({
      name,
      value: state.slots[name] ?? null,
      type: slot.type,
      ...(slot.values ? { allowedValues: [...slot.values] } : {}),
    }));
  return {
    id: `${state.sender_id}:${frame.frame_id}:${state.event_count}`,
    // A resumed agent did not receive the message that resumed it (the yes to go back).
    userMessage: frame.invocation === 'resume' ? '' : (ctx.turn.userMessage ?? ''),
    slots,
    conversationHistory: transcript(state.history),
    events: state.recent_events.map((e) => ({ ...e })),
    metadata: {
      sender_id: state.sender_id,
      conversation_id: state.sender_id,
      agent_id: frame.agent_id,
      ...modelId(ctx, frame),
      flow_id: frame.flow_id,
      step_id: frame.step_id,
      ...(frame.exit_if ? { exit_if: frame.exit_if } : {}),
      resumed: frame.invocation === 'resume',
      restarted: frame.invocation === 'restart',
      ...(frame.last_message !== undefined ? { last_message: frame.last_message } : {}),
      // What the channel sent with the message the agent is answering (locale, user ids, …).
      ...(ctx.turn.userMetadata && frame.invocation !== 'resume'
        ? { message_metadata: ctx.turn.userMetadata }
        : {}),
      ...frame.session,
    },
    timestamp: new Date(ctx.ports.now()).toISOString(),
  };
}

/** The model a ReAct agent's `configuration.llm` names (its model group, or its model), if any. */
function modelId(ctx: TurnContext, frame: AgentFrame): { model_id?: string } {
  const agent = ctx.model.assistant.agents[frame.agent_id];
  const llm = agent?.protocol === 'RASA' ? agent.configuration.llm : undefined;
  const id = llm?.model_group ?? llm?.model;
  return id ? { model_id: id } : {};
}
