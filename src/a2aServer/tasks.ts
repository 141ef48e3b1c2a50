/**
 * Changing a stored task without losing a concurrent change: read, change, write on the condition
 * that nobody wrote since, and start over when somebody did. A task past its deadline fails here,
 * when it is next read or changed.
 */
import { SwitchboardError } from '../resilience/index.js';
import type { TaskRecord } from './record.js';
import type { A2ATaskStore } from './taskStore.js';
import { agentMessage, part, withState } from './updates.js';

/** Writes a task tries at most before it gives up. */
const ATTEMPTS = 10;

/**
 * A task kept changing under a writer for `ATTEMPTS` tries. Code `A2A_TASK_CONTENDED`,
 * transient.
 */
export class TaskContendedError extends SwitchboardError {
  override readonly name = 'TaskContendedError';
  override readonly code = 'A2A_TASK_CONTENDED';
  constructor(readonly taskId: string) {
    super(`task ${taskId} kept changing while it was written; try again`, { transient: true });
  }
}

/**
 * Applies `change` to the stored task until the write holds; the task as written, as it is when
 * `change` leaves it alone (undefined), or undefined when there is no such task.
 */
export async function changeTask(
  store: A2ATaskStore,
  conversationId: string,
  taskId: string,
  change: (record: TaskRecord) => TaskRecord | undefined,
): Promise<TaskRecord | undefined> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const record = await store.load(conversationId, taskId);
    if (!record) return undefined;
    const changed = change(record);
    if (!changed) return record;
    // One write is one version, however many steps the change took.
    const next = { ...changed, version: record.version + 1 };
    if (await store.save(conversationId, next)) return next;
  }
  throw new TaskContendedError(taskId);
}

/** Fails the task if it is past its deadline and still submitted or working; the task after. */
export function expireTask(
  store: A2ATaskStore,
  conversationId: string,
  taskId: string,
  now: () => number,
): Promise<TaskRecord | undefined> {
  return changeTask(store, conversationId, taskId, (r) =>
    overdue(r, now()) ? timedOut(r, now()) : undefined,
  );
}

/** The stored task, failed first if it outlived its deadline while submitted or working. */
export async function readTask(
  store: A2ATaskStore,
  conversationId: string,
  taskId: string,
  now: () => number,
): Promise<TaskRecord | undefined> {
  const record = await store.load(conversationId, taskId);
  if (!record || !overdue(record, now())) return record;
  return changeTask(store, conversationId, taskId, (r) =>
    overdue(r, now()) ? timedOut(r, now()) : undefined,
  );
}

function overdue(record: TaskRecord, now: number): boolean {
  const working = record.state === 'TASK_STATE_SUBMITTED' || record.state === 'TASK_STATE_WORKING';
  return working && record.deadline !== undefined && record.deadline <= now;
}

function timedOut(record: TaskRecord, now: number): TaskRecord {
  const text = 'The task took longer than its time limit.';
  const message = agentMessage(record, `${record.id}#timeout`, [
    part({ $case: 'text', value: text }),
  ]);
  return withState(record, 'TASK_STATE_FAILED', now, message);
}
