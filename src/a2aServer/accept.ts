/**
 * A message becomes a turn: once it has passed every check, its message id is claimed (a repeat
 * joins the turn it started), its task is written (a new one, or the one it continues, with the
 * user's message in its history) and the turn's job is queued. The task is written before the job
 * is queued, so the worker always finds the task it folds the turn into; a message refused after
 * its claim gives the claim back, so that its retry is taken afresh.
 */
import { randomUUID } from 'node:crypto';
import type { Message, SendMessageRequest } from '@a2a-js/sdk';
import {
  RequestMalformedError,
  TaskNotFoundError,
  UnsupportedOperationError,
} from '@a2a-js/sdk/errors';
import type { A2AServerSettings } from '../assistant/index.js';
import { SwitchboardError } from '../resilience/index.js';
import type { Job, JobQueue } from '../runtime/index.js';
import { openContext } from './contexts.js';
import {
  A2A_CHANNEL,
  conversationOf,
  conversationOfTask,
  newTaskId,
  taskOfTurn,
  turnIdOf,
} from './ids.js';
import { queuePushes } from './push.js';
import { type PushTargetDeps, pushTargetOf, withTarget } from './pushTargets.js';
import {
  HISTORY_LIMIT,
  messageJson,
  type ProtoJson,
  type PushTarget,
  seenBy,
  TASK_RECORD_VERSION,
  type TaskRecord,
  TERMINAL,
} from './record.js';
import type { A2ATaskStore } from './taskStore.js';
import { changeTask } from './tasks.js';
import { part, withState } from './updates.js';

export interface AcceptDeps extends PushTargetDeps {
  readonly settings: A2AServerSettings;
  readonly tasks: A2ATaskStore;
  readonly queue: JobQueue;
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;
}

/** The longest user message (as JSON) a task's history keeps whole. */
const HISTORY_MESSAGE_CHARS = 8_000;

/** How long a repeat waits for the task of the turn its first try claimed to be written. */
const CLAIMED_TASK_WAIT_MS = 2_000;
const CLAIMED_TASK_POLL_MS = 100;

/** A message taken on: the turn to wait for, in its task and conversation. */
export interface Accepted {
  readonly conversationId: string;
  readonly taskId: string;
  readonly turnId: string;
  readonly record: TaskRecord;
}

export async function acceptMessage(
  request: SendMessageRequest,
  deps: AcceptDeps,
  protocol: TaskRecord['protocol'],
  caller: string,
): Promise<Accepted> {
  const message = request.message;
  if (!message?.messageId) throw new RequestMalformedError('the message needs a messageId');
  const existing = message.taskId ? await continued(message, deps, caller) : undefined;
  const contextId = existing?.context_id ?? (message.contextId || randomUUID());
  const conversationId = conversationOf(contextId);
  if (!existing && message.contextId) await checkContextCaller(deps, conversationId, caller);
  const taskId = existing?.id ?? newTaskId(conversationId);
  const jobId = `a2a-${randomUUID()}`;
  const config = request.configuration?.taskPushNotificationConfig;
  const turn: Turn = {
    request,
    message,
    text: textOf(message),
    caller,
    protocol,
    now: deps.now(),
    existing,
    contextId,
    conversationId,
    taskId,
    jobId,
    turnId: turnIdOf(taskId, jobId),
    target: config
      ? await pushTargetOf(deps, { ...config, taskId }, protocol, (existing?.next_seq ?? 0) - 1)
      : undefined,
  };

  const ttl =
    (deps.settings.a2a_message_cache_ttl_seconds ?? deps.settings.task_timeout_seconds) * 1000;
  const claim = ttl > 0 ? `${caller}\n${message.messageId}` : undefined;
  if (claim !== undefined) {
    const holder = await deps.tasks.claimMessage(claim, turn.turnId, turn.now + ttl);
    if (holder !== undefined) return joined(deps, holder, message.messageId);
  }
  try {
    return await startTurn(deps, turn);
  } catch (error) {
    // Refused or failed before its turn was queued: a retry of the message must start it.
    if (claim !== undefined) {
      await deps.tasks.releaseMessage(claim, turn.turnId).catch(() => undefined);
    }
    throw error;
  }
}

/** A message that passed its checks, and what its turn will be. */
interface Turn {
  readonly request: SendMessageRequest;
  readonly message: Message;
  readonly text: string;
  readonly caller: string;
  readonly protocol: TaskRecord['protocol'];
  readonly now: number;
  readonly existing: TaskRecord | undefined;
  readonly contextId: string;
  readonly conversationId: string;
  readonly taskId: string;
  readonly jobId: string;
  readonly turnId: string;
  readonly target: PushTarget | undefined;
}

/** Writes the message's task and queues its turn's job. */
async function startTurn(deps: AcceptDeps, t: Turn): Promise<Accepted> {
  const { message, conversationId, taskId, turnId, target, now } = t;
  const user = historyEntry({ ...message, contextId: t.contextId, taskId }, t.text);
  const timeout = deps.settings.task_timeout_seconds * 1000;
  const turn = { id: turnId, settled: false };
  const deadline = timeout > 0 ? { deadline: now + timeout } : {};
  if (!t.existing) await openContext(deps, conversationId);
  const record = t.existing
    ? await changeTask(deps.tasks, conversationId, taskId, (r) => {
        if (TERMINAL.has(r.state)) throw terminal(r);
        const next = { ...r, turn: { ...turn, version: r.turn.version }, ...deadline };
        const pushed = target ? withTarget(next, target) : next;
        const history = [...r.history, user].slice(-HISTORY_LIMIT);
        return withState({ ...pushed, history }, 'TASK_STATE_WORKING', now);
      })
    : await create(deps, conversationId, {
        v: TASK_RECORD_VERSION,
        id: taskId,
        context_id: t.contextId,
        version: 1,
        created_at: now,
        state: 'TASK_STATE_SUBMITTED',
        status_at: now,
        history: [user],
        artifacts: [],
        slots: {},
        turn: { ...turn, version: 0 },
        updates: [],
        next_seq: 0,
        ...deadline,
        protocol: t.protocol,
        push: target ? [target] : [],
        caller: t.caller,
      });
  if (!record) throw new TaskNotFoundError(`task ${taskId} was not found`);
  const data = message.parts.flatMap((p) => (p.content?.$case === 'data' ? [p.content.value] : []));
  const job: Job = {
    type: 'user_message',
    id: t.jobId,
    conversation_id: conversationId,
    turn_id: turnId,
    text: t.text,
    metadata: {
      ...(message.metadata ?? {}),
      ...(t.request.metadata ?? {}),
      a2a: {
        context_id: t.contextId,
        task_id: taskId,
        message_id: message.messageId,
        caller: t.caller,
        ...(data.length > 0 ? { data } : {}),
      },
    },
    channel: A2A_CHANNEL,
  };
  try {
    await deps.queue.enqueue([
      job,
      ...(timeout > 0 ? [timeoutJob(job, taskId, now + timeout)] : []),
    ]);
  } catch (error) {
    // Nothing will run the turn: the task must not wait for it.
    await changeTask(deps.tasks, conversationId, taskId, (r) =>
      r.turn.id === turnId ? withState(r, 'TASK_STATE_FAILED', deps.now()) : undefined,
    );
    throw error;
  }
  await queuePushes(deps, conversationId, record);
  return { conversationId, taskId, turnId, record };
}

/**
 * A repeat of a message joins the turn its first try started. That try may still be writing a
 * new task: the repeat waits for it a moment. A task that does not appear means the first try is
 * stuck or died; its claim holds until it expires.
 */
async function joined(deps: AcceptDeps, holder: string, messageId: string): Promise<Accepted> {
  const taskId = taskOfTurn(holder);
  const conversationId = taskId && conversationOfTask(taskId);
  if (taskId && conversationId) {
    for (let waited = 0; waited <= CLAIMED_TASK_WAIT_MS; waited += CLAIMED_TASK_POLL_MS) {
      const record = await deps.tasks.load(conversationId, taskId);
      if (record) return { conversationId, taskId, turnId: holder, record };
      await deps.sleep(CLAIMED_TASK_POLL_MS);
    }
  }
  throw new MessageInFlightError(
    `message ${messageId} is still being taken by an earlier request; send it again later`,
  );
}

/** A repeated message whose first try has not written its task. Code `A2A_MESSAGE_IN_FLIGHT`. */
export class MessageInFlightError extends SwitchboardError {
  override readonly name = 'MessageInFlightError';
  override readonly code = 'A2A_MESSAGE_IN_FLIGHT';
  override readonly transient = true;
}

/** The job that fails the task if its turn is still going on at `deadline`. */
function timeoutJob(turn: Job, taskId: string, deadline: number): Job {
  return {
    type: 'channel_work',
    id: `${turn.id}-timeout`,
    conversation_id: turn.conversation_id,
    turn_id: turn.turn_id,
    channel: A2A_CHANNEL,
    work: { kind: 'timeout', task_id: taskId },
    not_before: deadline,
  };
}

/**
 * The task a message continues: it must exist, be the caller's, be in the message's context and
 * not be over.
 */
async function continued(message: Message, deps: AcceptDeps, caller: string): Promise<TaskRecord> {
  const conversationId = conversationOfTask(message.taskId);
  const record = conversationId && (await deps.tasks.load(conversationId, message.taskId));
  if (!record || !seenBy(record, caller)) {
    throw new TaskNotFoundError(`task ${message.taskId} was not found`);
  }
  if (message.contextId && message.contextId !== record.context_id) {
    throw new RequestMalformedError(
      `task ${record.id} belongs to context ${record.context_id}, not ${message.contextId}`,
    );
  }
  if (TERMINAL.has(record.state)) throw terminal(record);
  return record;
}

/** A context a caller names is one no other caller has tasks in. */
async function checkContextCaller(deps: AcceptDeps, conversationId: string, caller: string) {
  const tasks = await deps.tasks.list(conversationId);
  if (tasks.some((r) => !seenBy(r, caller))) {
    throw new RequestMalformedError(
      'this contextId is taken by another caller: send without one to start a new context',
    );
  }
}

function terminal(record: TaskRecord): Error {
  return new UnsupportedOperationError(
    `task ${record.id} is ${record.state} and takes no more messages; send without a taskId to start a new task`,
  );
}

async function create(deps: AcceptDeps, conversationId: string, record: TaskRecord) {
  return (await deps.tasks.save(conversationId, record)) ? record : undefined;
}

/**
 * The user's message as the task's history keeps it: whole when small, else its text alone (cut
 * short when long), without data parts and metadata, so that a task item stays well inside
 * DynamoDB's 400 KB. The turn gets the message whole.
 */
function historyEntry(message: Message, text: string): ProtoJson {
  const whole = messageJson(message);
  if (JSON.stringify(whole).length <= HISTORY_MESSAGE_CHARS) return whole;
  const room = HISTORY_MESSAGE_CHARS / 2;
  const kept = text.length > room ? `${text.slice(0, room)} […]` : text;
  return messageJson({
    ...message,
    metadata: undefined,
    parts: [part({ $case: 'text', value: kept })],
  });
}

/** The user's text: the message's text parts, one per line. */
function textOf(message: Message): string {
  const texts = message.parts.flatMap((p) =>
    p.content?.$case === 'text' ? [p.content.value] : [],
  );
  if (texts.length === 0) throw new RequestMalformedError('the message needs a text part');
  return texts.join('\n');
}
