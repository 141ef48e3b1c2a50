/**
 * Outbox delivery: after a commit, a job's events go to the log, its messages to the channel and
 * its follow-up jobs to the queue, then the outbox is forgotten. Each part is idempotent, so a
 * crash between commit and delivery, or delivering twice, neither loses nor duplicates anything.
 *
 * An outbox whose only follow-up is an agent step is not cleared with a write of its own: that
 * step is queued last, so when it runs the rest was delivered, and its commit replaces the head,
 * outbox and all. Any other job that finds the outbox first delivers it again, harmlessly.
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
  if (followUpOf(outbox) === undefined)
    await deps.store.clearOutbox(conversationId, outbox.version);
}

/**
 * The id of the outbox's only follow-up job when it is an agent step, which goes through the
 * commit: its queueing is what delivered the outbox (see the module's header).
 */
export function followUpOf(outbox: Outbox): string | undefined {
  const [only, ...more] = outbox.jobs;
  return only?.type === 'agent_step' && more.length === 0 ? only.id : undefined;
}
