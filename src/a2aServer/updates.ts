/**
 * What a task records when it changes: its new status (and artifacts), appended to its updates,
 * numbered, for streams, subscribers and push notifications to send in order.
 */
import {
  type Artifact,
  type Message,
  type Part,
  Role,
  type StreamResponse,
  taskStateFromJSON,
} from '@a2a-js/sdk';
import {
  HISTORY_LIMIT,
  messageJson,
  type TaskRecord,
  type TaskStateName,
  UPDATE_LIMIT,
  updateJson,
} from './record.js';

/** A part of a message or artifact. */
export function part(content: Part['content']): Part {
  return { content, metadata: undefined, filename: '', mediaType: '' };
}

/** A message of the agent in the task. */
export function agentMessage(record: TaskRecord, messageId: string, parts: Part[]): Message {
  return {
    messageId,
    contextId: record.context_id,
    taskId: record.id,
    role: Role.ROLE_AGENT,
    parts,
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

/**
 * The task in `state`, with `message` as its status message (and in its history), the change
 * recorded as a status update after the given artifact updates. Each call is one more version.
 */
export function withState(
  record: TaskRecord,
  state: TaskStateName,
  now: number,
  message?: Message,
  artifacts: readonly Artifact[] = [],
): TaskRecord {
  const updates: StreamResponse[] = artifacts.map((artifact) => ({
    payload: {
      $case: 'artifactUpdate',
      value: {
        taskId: record.id,
        contextId: record.context_id,
        artifact,
        append: false,
        lastChunk: true,
        metadata: undefined,
      },
    },
  }));
  updates.push({
    payload: {
      $case: 'statusUpdate',
      value: {
        taskId: record.id,
        contextId: record.context_id,
        status: {
          state: taskStateFromJSON(state),
          message,
          timestamp: new Date(now).toISOString(),
        },
        metadata: undefined,
      },
    },
  });
  const json = message ? messageJson(message) : undefined;
  return {
    ...record,
    version: record.version + 1,
    state,
    status_at: now,
    status_message: json,
    history: json ? [...record.history, json].slice(-HISTORY_LIMIT) : record.history,
    ...recordUpdates(record, updates),
  };
}

/** The updates appended to a record, numbered on from its last. */
function recordUpdates(
  record: TaskRecord,
  updates: readonly StreamResponse[],
): Pick<TaskRecord, 'updates' | 'next_seq'> {
  const numbered = updates.map((update, i) => ({
    seq: record.next_seq + i,
    update: updateJson(update),
  }));
  return {
    updates: [...record.updates, ...numbered].slice(-UPDATE_LIMIT),
    next_seq: record.next_seq + updates.length,
  };
}
