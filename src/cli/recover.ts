import type { RunData } from '../runtime/durableAgents.js';
import { stepJob } from '../runtime/durableAgents.js';
import { deliverOutbox, type Job, type RuntimeDeps } from '../runtime/index.js';

/**
 * After a restart with `--data`, picks up what the previous process left: an outbox that was
 * committed but not delivered is delivered, and every agent run still in progress gets its next
 * step queued again (the local queue does not survive a restart; a step that already ran is
 * recognised and skipped).
 */
export async function recoverPendingWork(
  deps: RuntimeDeps,
  conversationIds: readonly string[],
): Promise<number> {
  let resumed = 0;
  for (const conversationId of conversationIds) {
    const head = await deps.store.load(conversationId);
    if (!head) continue;
    if (head.outbox) await deliverOutbox(conversationId, head.outbox, deps);
    const steps: Job[] = [];
    for (const [runId, pointer] of Object.entries(head.runs)) {
      const record = await deps.store.loadRun(conversationId, runId, pointer);
      if (!record) continue;
      const data = record.data as RunData;
      const parent: Job = {
        type: 'user_message',
        id: `recover-${runId}`,
        conversation_id: conversationId,
        turn_id: data.turnId,
        text: '',
        channel: data.channel,
      };
      steps.push(stepJob(parent, runId, data.frameId, data.steps, data.notBefore));
    }
    if (steps.length > 0) await deps.queue.enqueue(steps);
    resumed += steps.length;
  }
  return resumed;
}
