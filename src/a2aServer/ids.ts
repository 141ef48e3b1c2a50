/**
 * The ids of the A2A server. A context is the conversation `a2a:<contextId>` (a context id that is
 * not a sender id is hashed). A task id carries its context after a `~` (`<uuid>~<context key>`),
 * so that a request naming only the task finds its conversation. A turn is `<taskId>/<jobId>`:
 * the worker's batches of a turn name their task.
 */
import { createHash, randomUUID } from 'node:crypto';
import { senderIdProblem } from '../runtime/index.js';

/** The channel A2A turns run on. */
export const A2A_CHANNEL = 'a2a';

const PREFIX = 'a2a:';
/** Context ids kept as they are at most: longer ones (and others) are hashed. */
const CONTEXT_CHARS = 88;
const HASHED = 'h-';

/** The conversation of a context. */
export function conversationOf(contextId: string): string {
  const plain =
    contextId.length <= CONTEXT_CHARS &&
    !contextId.startsWith(HASHED) &&
    senderIdProblem(contextId) === undefined;
  return `${PREFIX}${plain ? contextId : `${HASHED}${digest(contextId, 40)}`}`;
}

/** A new task id in a conversation. */
export function newTaskId(conversationId: string): string {
  return `${randomUUID()}~${conversationId.slice(PREFIX.length)}`;
}

/** The conversation a task id names, or undefined when it is not one of ours. */
export function conversationOfTask(taskId: string): string | undefined {
  const at = taskId.indexOf('~');
  if (at < 1) return undefined;
  const conversation = `${PREFIX}${taskId.slice(at + 1)}`;
  return senderIdProblem(conversation) === undefined ? conversation : undefined;
}

export function turnIdOf(taskId: string, jobId: string): string {
  return `${taskId}/${jobId}`;
}

/** The task a turn belongs to; undefined for turns that are not the A2A server's. */
export function taskOfTurn(turnId: string): string | undefined {
  const at = turnId.lastIndexOf('/');
  return at > 0 ? turnId.slice(0, at) : undefined;
}

function digest(text: string, chars: number): string {
  return createHash('sha256').update(text).digest('hex').slice(0, chars);
}
