/**
 * Waiting for a turn without a waiting process: the request reads the task item, backing off from
 * 20 to 250 ms between reads, until the turn is over, its wait ends or the server stops.
 */
import { type TaskRecord, TERMINAL } from './record.js';
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

/**
 * Reads the task until `done` holds, `deadline` (ms since the epoch) passes, `signal` aborts or
 * the server stops; the task as last read (undefined when it is gone). Calls `seen` with every
 * read, for streams.
 */
export async function watchTask(
  deps: WatchDeps,
  conversationId: string,
  taskId: string,
  done: (record: TaskRecord) => boolean,
  deadline: number,
  seen?: (record: TaskRecord) => void | Promise<void>,
  signal?: AbortSignal,
): Promise<TaskRecord | undefined> {
  let wait = FIRST_WAIT_MS;
  for (;;) {
    const record = await readTask(deps.tasks, conversationId, taskId, deps.now);
    if (record) await seen?.(record);
    const stop = deps.now() >= deadline || deps.stopping?.aborted || signal?.aborted;
    if (!record || done(record) || stop) return record;
    await deps.sleep(Math.min(wait, Math.max(0, deadline - deps.now())));
    wait = Math.min(wait * 2, LONGEST_WAIT_MS);
  }
}
