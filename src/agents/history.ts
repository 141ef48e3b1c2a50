import type { AgentInput } from '../assistant/index.js';
import type { ToolChatMessage } from '../llm/index.js';

/** Marks the messages of an agent's previous, completed run when the agent was restarted. */
export const PREVIOUS_RUN_MARK = 'Previous run (completed).';
export const PREVIOUS_RUN_END = 'End of the previous run; the current run starts here.';

/**
 * The recent conversation as chat messages, oldest first: the user's messages and the
 * assistant's texts from the input's events. When the agent was restarted, what was said in its
 * previous run (from its start up to the message that restarted it) is fenced off with system
 * messages, so the model can tell that run from the new one.
 */
export function historyMessages(
  input: AgentInput,
  agentId: string,
  restarted: boolean,
): ToolChatMessage[] {
  const messages = input.events.map((event): ToolChatMessage | undefined => {
    const text = typeof event.text === 'string' ? event.text : undefined;
    if (text && event.event === 'user') return { role: 'user', content: text };
    if (text && event.event === 'bot') return { role: 'assistant', content: text };
    return undefined;
  });
  if (restarted) {
    const started = findLastIndex(
      input.events,
      (e) => e.event === 'agent_started' && e.agent_id === agentId,
    );
    const restartedBy = findLastIndex(input.events, (e) => e.event === 'user');
    const previous = messages.slice(started + 1, restartedBy).filter((m) => m !== undefined);
    if (started >= 0 && restartedBy > started && previous.length > 0) {
      return [
        ...messages.slice(0, started + 1),
        { role: 'system' as const, content: PREVIOUS_RUN_MARK },
        ...previous,
        { role: 'system' as const, content: PREVIOUS_RUN_END },
        ...messages.slice(restartedBy),
      ].filter((m) => m !== undefined);
    }
  }
  return messages.filter((m) => m !== undefined);
}

function findLastIndex<T>(items: readonly T[], test: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (test(items[i] as T)) return i;
  return -1;
}
