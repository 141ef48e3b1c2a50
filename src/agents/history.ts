import type { AgentInput } from '../assistant/index.js';
import type { ToolChatMessage } from '../llm/index.js';

/** Marks the messages of an agent's previous, completed run when the agent was restarted. */
export const PREVIOUS_RUN_MARK = 'Previous run (completed).';
export const PREVIOUS_RUN_END = 'End of the previous run; the current run starts here.';

/**
 * The recent conversation as chat messages, oldest first: the user's messages and the
 * assistant's texts from the input's events. When the agent was restarted, the messages of its
 * last completed run are fenced off with system messages, so the model can tell them apart.
 */
export function historyMessages(
  input: AgentInput,
  agentId: string,
  restarted: boolean,
): ToolChatMessage[] {
  const events = input.events;
  let fence: { start: number; end: number } | undefined;
  if (restarted) {
    const end = findLastIndex(
      events,
      (e) => e.event === 'agent_completed' && e.agent_id === agentId,
    );
    if (end >= 0) {
      const start = findLastIndex(
        events.slice(0, end),
        (e) => e.event === 'agent_started' && e.agent_id === agentId,
      );
      fence = { start: Math.max(0, start), end };
    }
  }
  const messages: ToolChatMessage[] = [];
  events.forEach((event, i) => {
    if (fence && i === fence.start) messages.push({ role: 'system', content: PREVIOUS_RUN_MARK });
    const text = typeof event.text === 'string' ? event.text : undefined;
    if (text && event.event === 'user') messages.push({ role: 'user', content: text });
    if (text && event.event === 'bot') messages.push({ role: 'assistant', content: text });
    if (fence && i === fence.end) messages.push({ role: 'system', content: PREVIOUS_RUN_END });
  });
  return messages;
}

function findLastIndex<T>(items: readonly T[], test: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (test(items[i] as T)) return i;
  return -1;
}
