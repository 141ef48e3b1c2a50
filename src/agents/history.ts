import type { AgentInput } from '../assistant/index.js';
import type { ToolChatMessage } from '../llm/index.js';

/** Marks the messages of an agent's previous, completed run when the agent was restarted. */
export const PREVIOUS_RUN_MARK = 'Previous run (completed).';
export const PREVIOUS_RUN_END = 'End of the previous run; the current run starts here.';

/** The response of the pattern that tells the user a run is still working: not the agent's words. */
const PROCESSING_RESPONSE = 'utter_external_agent_processing';

/**
 * The recent conversation as chat messages, oldest first: the user's messages and the
 * assistant's texts from the input's events, with the message the agent answers last. Messages
 * the user sent while the agent worked were logged when they came; the one being answered moves
 * to the end and later ones, still to come, are left out, as is the pattern that acknowledged
 * them. A resumed agent does not see the message that resumed it. When the agent was restarted,
 * what was said in its previous run (from its start up to the message that restarted it) is
 * fenced off with system messages, so the model can tell that run from the new one.
 */
export function historyMessages(
  input: AgentInput,
  agentId: string,
  flags: { readonly restarted: boolean; readonly resumed: boolean },
): ToolChatMessage[] {
  let events = input.events.filter(
    (e) =>
      !(
        e.event === 'bot' &&
        (e.metadata as { utter_action?: unknown } | undefined)?.utter_action === PROCESSING_RESPONSE
      ),
  );
  const current = findLastIndex(
    events,
    (e) => e.event === 'user' && answers(e.text, input.userMessage),
  );
  if (flags.resumed) {
    const resumedBy = findLastIndex(events, (e) => e.event === 'user');
    if (resumedBy >= 0) events = events.filter((_, i) => i !== resumedBy);
  } else if (current >= 0) {
    events = events.filter((e, i) => i < current || (i > current && e.event !== 'user'));
  }
  const tail: ToolChatMessage[] = input.userMessage
    ? [{ role: 'user', content: input.userMessage }]
    : [];
  const messages = events.map((event): ToolChatMessage | undefined => {
    const text = typeof event.text === 'string' ? event.text : undefined;
    if (text && event.event === 'user') return { role: 'user', content: text };
    if (text && event.event === 'bot') return { role: 'assistant', content: text };
    return undefined;
  });
  if (flags.restarted) {
    const started = findLastIndex(
      events,
      (e) => e.event === 'agent_started' && e.agent_id === agentId,
    );
    const previous = messages.slice(started + 1).filter((m) => m !== undefined);
    if (started >= 0 && previous.length > 0) {
      return [
        ...messages.slice(0, started + 1),
        { role: 'system' as const, content: PREVIOUS_RUN_MARK },
        ...previous,
        { role: 'system' as const, content: PREVIOUS_RUN_END },
        ...tail,
      ].filter((m) => m !== undefined);
    }
  }
  return [...messages.filter((m) => m !== undefined), ...tail];
}

/** Whether a logged user text (clipped in the event window) is the message being answered. */
function answers(logged: unknown, message: string): boolean {
  if (typeof logged !== 'string' || !message) return false;
  return logged === message || (logged.endsWith('…') && message.startsWith(logged.slice(0, -1)));
}

function findLastIndex<T>(items: readonly T[], test: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (test(items[i] as T)) return i;
  return -1;
}
