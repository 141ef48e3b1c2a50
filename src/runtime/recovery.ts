/**
 * Recovery after a restart of a process whose queue did not survive it (the local stack with
 * `--state`): an outbox that was committed but not delivered is delivered, and every agent run
 * still in progress gets its next step queued again (a step that already ran is recognised and
 * skipped by its number).
 */
import { deliverOutbox } from './delivery.js';
import { stepJob } from './durableAgents.js';
import type { Job } from './jobs.js';
import { loadRunState, RunRecordError, type RunState } from './runRecords.js';
import type { RuntimeDeps } from './runtimeDeps.js';

/** Picks up the work the previous process left; answers how many run steps were queued. */
export async function recoverPendingWork(
  deps: Pick<RuntimeDeps, 'store' | 'queue' | 'output'>,
  conversationIds: readonly string[],
): Promise<number> {
  let resumed = 0;
  for (const conversationId of conversationIds) {
    const head = await deps.store.load(conversationId);
    if (!head) continue;
    if (head.outbox) await deliverOutbox(conversationId, head.outbox, head.state, deps);
    const steps: Job[] = [];
    for (const [runId, pointer] of Object.entries(head.runs)) {
      const run = await readableRun(deps, conversationId, runId, pointer);
      if (!run) continue;
      const parent = { conversation_id: conversationId, turn_id: run.turnId };
      steps.push(stepJob(parent, runId, run.frameId, run.steps, run.notBefore));
    }
    if (steps.length > 0) await deps.queue.enqueue(steps);
    resumed += steps.length;
  }
  return resumed;
}

/** The run's state, or undefined when its record is gone or unreadable (nothing to resume). */
async function readableRun(
  deps: Pick<RuntimeDeps, 'store'>,
  conversationId: string,
  runId: string,
  pointer: string,
): Promise<RunState | undefined> {
  try {
    return await loadRunState(deps.store, conversationId, runId, pointer);
  } catch (error) {
    if (error instanceof RunRecordError) return undefined;
    throw error;
  }
}
