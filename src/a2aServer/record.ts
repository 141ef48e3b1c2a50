/**
 * A task as the A2A server stores it: one item per task, versioned for conditional writes. Its
 * messages, artifacts and recorded updates are kept in the protocol's JSON form (A2A 1.0) and
 * bounded, so that an item stays far below DynamoDB's 400 KB whatever the task's length.
 */
import { Artifact, Message, StreamResponse, Task, TaskState, taskStateFromJSON } from '@a2a-js/sdk';
import * as z from 'zod/mini';
import { SwitchboardError } from '../resilience/index.js';

/** The version of the stored task written by this code. */
export const TASK_RECORD_VERSION = 1;
/** Messages a task keeps in its history; older ones are dropped first. */
export const HISTORY_LIMIT = 20;
/** Updates a task keeps for streams and subscribers to read; older ones are dropped first. */
export const UPDATE_LIMIT = 30;

export const TaskStateName = z.enum([
  'TASK_STATE_SUBMITTED',
  'TASK_STATE_WORKING',
  'TASK_STATE_INPUT_REQUIRED',
  'TASK_STATE_AUTH_REQUIRED',
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_REJECTED',
]);
export type TaskStateName = z.infer<typeof TaskStateName>;

/** States after which a task takes no more messages. */
export const TERMINAL: ReadonlySet<TaskStateName> = new Set([
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_REJECTED',
]);
/** States that end an exchange: the task is over, or waits for its caller. */
export const INTERRUPTED: ReadonlySet<TaskStateName> = new Set([
  ...TERMINAL,
  'TASK_STATE_INPUT_REQUIRED',
  'TASK_STATE_AUTH_REQUIRED',
]);

/** An object in the protocol's JSON form, read with the SDK's `fromJSON`. */
const ProtoJson = z.record(z.string(), z.unknown());
export type ProtoJson = z.infer<typeof ProtoJson>;

/** An update recorded for streams and subscribers: a `StreamResponse` in JSON form. */
export const RecordedUpdate = z.object({ seq: z.int().check(z.nonnegative()), update: ProtoJson });
export type RecordedUpdate = z.infer<typeof RecordedUpdate>;

/** Where a caller asked for the task's updates, and how far they were delivered. */
export const PushTarget = z.object({
  id: z.string(),
  url: z.string(),
  /** The token and `Authorization` credentials, sealed (see `seal.ts`). */
  sealed: z.optional(z.string()),
  /** The `Authorization` scheme the credentials go with. */
  scheme: z.optional(z.string()),
  /** The last update delivered (its `seq`; -1: none). */
  delivered: z.int(),
  /** The protocol version it was registered with: its notifications' shape. */
  protocol: z.enum(['1.0', '0.3']),
});
export type PushTarget = z.infer<typeof PushTarget>;

/** Push targets a task keeps at most. */
export const PUSH_TARGET_LIMIT = 10;

export const TaskRecord = z.object({
  v: z.literal(TASK_RECORD_VERSION),
  id: z.string(),
  context_id: z.string(),
  /** Increases by one per write: the condition of every write. */
  version: z.int().check(z.minimum(1)),
  created_at: z.number(),
  state: TaskStateName,
  status_message: z.optional(ProtoJson),
  /** When the state last changed (ms since the epoch). */
  status_at: z.number(),
  history: z.array(ProtoJson),
  artifacts: z.array(ProtoJson),
  /** Slot values the task's turns set (the data artifact once the task completes). */
  slots: z.record(z.string(), z.unknown()),
  /** The turn the task is on: the latest message's, and the last head version folded into it. */
  turn: z.object({ id: z.string(), version: z.int().check(z.nonnegative()), settled: z.boolean() }),
  updates: z.array(RecordedUpdate),
  next_seq: z.int().check(z.nonnegative()),
  /** A task still submitted or working at this time (ms) has failed; absent: no limit. */
  deadline: z.optional(z.number()),
  /** The protocol version the task was created with. */
  protocol: z.enum(['1.0', '0.3']),
  push: z._default(z.array(PushTarget), []),
  /**
   * The caller that created the task (the JWT's subject, `api-key` or `api-token`): the only one
   * that sees it, continues it or cancels it. Absent on tasks created before callers were kept.
   */
  caller: z.optional(z.string()),
});
export type TaskRecord = z.infer<typeof TaskRecord>;

/** Whether a caller may see a task: the one that created it (any, for tasks of no recorded caller). */
export function seenBy(record: TaskRecord, caller: string): boolean {
  return record.caller === undefined || record.caller === caller;
}

/** A stored task of a version this code does not read. Code `A2A_TASK_VERSION_UNSUPPORTED`. */
export class TaskRecordVersionError extends SwitchboardError {
  override readonly name = 'TaskRecordVersionError';
  override readonly code = 'A2A_TASK_VERSION_UNSUPPORTED';
  constructor(
    readonly taskId: string,
    readonly found: unknown,
  ) {
    super(
      `stored A2A task ${taskId} has version ${String(found)}; this build reads version ${TASK_RECORD_VERSION}`,
    );
  }
}

/** Parses a stored task, refusing unknown versions with a clear error. */
export function parseTaskRecord(taskId: string, data: unknown): TaskRecord {
  const found = (data as { v?: unknown } | null)?.v;
  if (found !== TASK_RECORD_VERSION) throw new TaskRecordVersionError(taskId, found);
  return TaskRecord.parse(data);
}

export function messageJson(message: Message): ProtoJson {
  return ProtoJson.parse(Message.toJSON(message));
}

export function artifactJson(artifact: Artifact): ProtoJson {
  return ProtoJson.parse(Artifact.toJSON(artifact));
}

export function updateJson(update: StreamResponse): ProtoJson {
  return ProtoJson.parse(StreamResponse.toJSON(update));
}

export function stateOf(record: TaskRecord): TaskState {
  return taskStateFromJSON(record.state);
}

/**
 * The task as the protocol shows it, with at most `historyLength` messages of its history (all
 * when undefined, none for 0) and its artifacts unless they are left out.
 */
export function toTask(
  record: TaskRecord,
  options: { historyLength?: number | undefined; artifacts?: boolean } = {},
): Task {
  const { historyLength } = options;
  const history =
    historyLength === undefined
      ? record.history
      : historyLength <= 0
        ? []
        : record.history.slice(-historyLength);
  return Task.fromJSON({
    id: record.id,
    contextId: record.context_id,
    status: {
      state: record.state,
      ...(record.status_message ? { message: record.status_message } : {}),
      timestamp: new Date(record.status_at).toISOString(),
    },
    artifacts: options.artifacts === false ? [] : record.artifacts,
    history,
  });
}

/** The recorded updates after `seq`, as the protocol's stream responses. */
export function updatesAfter(record: TaskRecord, seq: number): StreamResponse[] {
  return record.updates.filter((u) => u.seq > seq).map((u) => StreamResponse.fromJSON(u.update));
}

/** Whether updates after `seq` were dropped from the record (a reader fell behind). */
export function missedUpdates(record: TaskRecord, seq: number): boolean {
  const first = record.updates[0];
  return first !== undefined && first.seq > seq + 1;
}

export { TaskState };
