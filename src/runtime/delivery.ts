/**
 * Outbox delivery: after a commit, a job's events go to the log, its messages to the channel and
 * its follow-up jobs to the queue, then the outbox is forgotten. Each part is idempotent, so a
 * crash between commit and delivery, or delivering twice, neither loses nor duplicates anything.
 */
import type { ConversationState } from '../dialogue/index.js';
import type { Outbox } from './outbox.js';
import type { RuntimeDeps } from './runtimeDeps.js';

/**
 * Delivers a committed outbox, then clears it from the head. `state` is the conversation's state
 * committed with it (the head's, for an outbox found on a head), which the channel may read.
 */
export async function deliverOutbox(
  conversationId: string,
  outbox: Outbox,
  state: ConversationState,
  deps: Pick<RuntimeDeps, 'store' | 'output' | 'queue'>,
): Promise<void> {
  await deps.store.appendEvents(conversationId, outbox.version, outbox.events);
  const batch = {
    conversationId,
    jobId: outbox.job_id,
    version: outbox.version,
    channel: outbox.channel,
    state,
    events: outbox.events,
  };
  await deps.output.deliver({
    ...batch,
    turnId: outbox.turn_id,
    messages: outbox.messages,
    settled: outbox.settled,
  });
  for (const turnId of outbox.settle_turns) {
    await deps.output.deliver({ ...batch, turnId, messages: [], settled: true });
  }
  if (outbox.jobs.length > 0) await deps.queue.enqueue(outbox.jobs);
  await deps.store.clearOutbox(conversationId, outbox.version);
}
