/**
 * `max_contexts`: how many contexts the server holds. A message that opens a context (one that is
 * not open yet) gives it the next of `max_contexts` slots, taken in turn; the context that held
 * the slot, the one opened longest ago, is closed: its tasks that are not over fail, saying so,
 * and a later message to it opens it afresh (its conversation stays, as conversations do). 0
 * holds any number. A context is open from its first message until it is closed or expires
 * with its conversation.
 */
import type { A2AServerSettings } from '../assistant/index.js';
import type { JobQueue } from '../runtime/index.js';
import { queuePushes } from './push.js';
import { TERMINAL } from './record.js';
import type { A2ATaskStore } from './taskStore.js';
import { changeTask } from './tasks.js';
import { agentMessage, part, withState } from './updates.js';

export interface ContextDeps {
  readonly settings: Pick<A2AServerSettings, 'max_contexts'>;
  readonly tasks: A2ATaskStore;
  readonly queue: JobQueue;
  readonly now: () => number;
}

/** Opens the context of a conversation, closing the oldest one when the cap is reached. */
export async function openContext(deps: ContextDeps, conversationId: string): Promise<void> {
  const limit = deps.settings.max_contexts;
  if (limit === 0 || !(await deps.tasks.openContext(conversationId))) return;
  const evicted = await deps.tasks.takeContextSlot(limit, conversationId);
  if (!evicted || evicted === conversationId) return;
  await deps.tasks.closeContext(evicted);
  const text = `The context was closed: this agent holds at most ${limit} contexts.`;
  for (const record of await deps.tasks.list(evicted)) {
    if (TERMINAL.has(record.state)) continue;
    const closed = await changeTask(deps.tasks, evicted, record.id, (r) =>
      TERMINAL.has(r.state)
        ? undefined
        : withState(
            r,
            'TASK_STATE_FAILED',
            deps.now(),
            agentMessage(r, `${r.id}#closed`, [part({ $case: 'text', value: text })]),
          ),
    );
    if (closed) await queuePushes(deps, evicted, closed);
  }
}
