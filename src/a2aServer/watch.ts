/**
 * Waiting for a turn without a waiting process: a request reads the task item, backing off from
 * 20 to 250 ms between reads (and back to 20 after a change), until what it waits for holds, its
 * time is up or the server stops. Streams and subscribers send the updates the item records
 * after the task they started with, in order; one that fell behind the updates an item keeps
 * gets the task's current status instead of those it missed.
 */
import type { StreamResponse } from '@a2a-js/sdk';
import { missedUpdates, type TaskRecord, TERMINAL, toTask, updatesAfter } from './record.js';
import type { A2ATaskStore } from './taskStore.js';
import { readTask } from './tasks.js';

export interface WatchDeps {
  readonly tasks: A2ATaskStore;
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;
  /** Aborted when the server stops: waiting requests answer with what they have. */
  readonly stopping?: AbortSignal;
}

const FIRST_WAIT_MS = 20;
const LONGEST_WAIT_MS = 250;

/** Whether the exchange about `turnId` is over: the turn settled, the task ended or moved on. */
export function turnOver(record: TaskRecord, turnId: string): boolean {
  return record.turn.id !== turnId || record.turn.settled || TERMINAL.has(record.state);
}

/** Each read of the task until `done` holds of one, `deadline` passes or the server stops. */
async function* reads(
  deps: WatchDeps,
  conversationId: string,
  taskId: string,
  done: (record: TaskRecord) => boolean,
  deadline: number,
): AsyncGenerator<TaskRecord> {
  let wait = FIRST_WAIT_MS;
  let version = 0;
  for (;;) {
    const record = await readTask(deps.tasks, conversationId, taskId, deps.now);
    if (!record) return;
    yield record;
    if (done(record) || deps.now() >= deadline || deps.stopping?.aborted) return;
    wait = record.version !== version ? FIRST_WAIT_MS : Math.min(wait * 2, LONGEST_WAIT_MS);
    version = record.version;
    await deps.sleep(Math.min(wait, Math.max(0, deadline - deps.now())));
  }
}

/** The task once `done` holds of it, or as it is when the time is up (undefined: it is gone). */
export async function watchTask(
  deps: WatchDeps,
  conversationId: string,
  taskId: string,
  done: (record: TaskRecord) => boolean,
  deadline: number,
): Promise<TaskRecord | undefined> {
  let last: TaskRecord | undefined;
  for await (const record of reads(deps, conversationId, taskId, done, deadline)) last = record;
  return last;
}

/**
 * The updates of a task after `from` (the task a stream began with), until `done` holds, the
 * deadline passes or the server stops.
 */
export async function* followTask(
  deps: WatchDeps,
  from: TaskRecord,
  conversationId: string,
  done: (record: TaskRecord) => boolean,
  deadline: number,
): AsyncGenerator<StreamResponse> {
  let seen = from.next_seq - 1;
  for await (const record of reads(deps, conversationId, from.id, done, deadline)) {
    if (missedUpdates(record, seen)) {
      const task = toTask(record);
      yield {
        payload: {
          $case: 'statusUpdate',
          value: {
            taskId: task.id,
            contextId: task.contextId,
            status: task.status,
            metadata: undefined,
          },
        },
      };
    } else {
      yield* updatesAfter(record, seen);
    }
    seen = record.next_seq - 1;
  }
}
