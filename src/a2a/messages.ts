/**
 * What goes over the wire to an A2A agent and what comes back, as pure functions: the user's
 * message (with the conversation's context and slots) as an A2A `Message`, and the agent's
 * `Message` or `Task` as the orchestrator's `AgentOutput`.
 */
import { Message, type Part, Role, type Task, TaskState, type TaskStatus } from '@a2a-js/sdk';
import type { AgentInput, AgentOutput } from '../assistant/index.js';
import { QUESTION_KEY, stringAt } from './runData.js';

/** Where a task stands, in our words: still going, waiting for the user, or over. */
export type TaskPhase = 'working' | 'input_required' | 'completed' | 'failed';

/** Maps an A2A task state; unknown states count as working (the next poll tells more). */
export function phaseOf(state: TaskState | undefined): TaskPhase {
  switch (state) {
    case TaskState.TASK_STATE_COMPLETED:
      return 'completed';
    case TaskState.TASK_STATE_INPUT_REQUIRED:
    case TaskState.TASK_STATE_AUTH_REQUIRED:
      return 'input_required';
    case TaskState.TASK_STATE_FAILED:
    case TaskState.TASK_STATE_REJECTED:
    case TaskState.TASK_STATE_CANCELED:
      return 'failed';
    default:
      return 'working';
  }
}

/** A state's name as the protocol spells it in 0.3 (`input-required`), for logs and errors. */
export function stateName(state: TaskState | undefined): string {
  if (state === undefined) return 'unknown';
  const name = TaskState[state] ?? String(state);
  return name
    .replace(/^TASK_STATE_/, '')
    .toLowerCase()
    .replaceAll('_', '-');
}

/**
 * What identifies a status: its message's id, else `@` and its time; undefined when it has neither.
 * A task that shows the same status again has not changed.
 */
export function statusKey(status: TaskStatus | undefined): string | undefined {
  const id = status?.message?.messageId;
  if (id) return id;
  return status?.timestamp ? `@${status.timestamp}` : undefined;
}

/** A text part. */
export function textPart(text: string): Part {
  return {
    content: { $case: 'text', value: text },
    metadata: undefined,
    filename: '',
    mediaType: '',
  };
}

/** A data part (JSON). */
export function dataPart(value: Record<string, unknown>): Part {
  return {
    content: { $case: 'data', value },
    metadata: undefined,
    filename: '',
    mediaType: 'application/json',
  };
}

/**
 * The message for one invocation: the user's text, then a data part with the conversation's
 * slots and recent transcript. `AgentInput.metadata` (with the hook's credentials over it) is the
 * message's metadata; its `context_id` and `task_id` continue the agent's context and task.
 */
export function outgoingMessage(
  input: AgentInput,
  messageId: string,
  hookMetadata: Readonly<Record<string, unknown>>,
): Message {
  const parts: Part[] = [];
  if (input.userMessage !== '') parts.push(textPart(input.userMessage));
  parts.push(
    dataPart({
      slots: Object.fromEntries(input.slots.map((slot) => [slot.name, slot.value ?? null])),
      conversation_history: input.conversationHistory,
    }),
  );
  const contextId = stringAt(input.metadata, 'context_id');
  const taskId = stringAt(input.metadata, 'task_id');
  // Which of its statuses asked is ours to know; the agent has the answer's task.
  const { [QUESTION_KEY]: _asked, ...metadata } = input.metadata;
  return {
    messageId,
    contextId: contextId ?? '',
    taskId: taskId ?? '',
    role: Role.ROLE_USER,
    parts,
    metadata: { ...metadata, ...hookMetadata },
    extensions: [],
    referenceTaskIds: [],
  };
}

/** The small message of the health check: answered by any agent that works. */
export function healthCheckMessage(messageId: string): Message {
  return Message.fromJSON({
    messageId,
    role: 'ROLE_USER',
    parts: [{ text: 'health check' }],
    metadata: { health_check: true },
  });
}

/** The text parts of a message or artifact, joined by blank lines. */
export function textOf(parts: readonly Part[] | undefined): string {
  return (parts ?? [])
    .flatMap((part) => (part.content?.$case === 'text' ? [part.content.value] : []))
    .filter((text) => text.trim() !== '')
    .join('\n\n');
}

/** The data parts of a message or artifact, each as an object. */
export function dataOf(parts: readonly Part[] | undefined): Record<string, unknown>[] {
  return (parts ?? []).flatMap((part) => {
    if (part.content?.$case !== 'data') return [];
    const value: unknown = part.content.value;
    return [
      value !== null && typeof value === 'object' && !Array.isArray(value)
        ? (value as Record<string, unknown>)
        : { value },
    ];
  });
}

/** An agent that answers with a plain message has completed its turn. */
export function outputOfMessage(id: string, message: Message): AgentOutput {
  const data = dataOf(message.parts);
  const text = textOf(message.parts);
  return {
    id,
    status: 'completed',
    ...(text ? { responseMessage: text } : {}),
    ...(data.length > 0 ? { structuredResults: [data] } : {}),
    metadata: ids(message.contextId, undefined),
  };
}

/**
 * The output of a task that has stopped working: completed (its artifacts' text and data), waiting
 * for the user (input or authentication required: the agent's question, and the task's ids so the
 * answer continues it), or failed, rejected or cancelled. Undefined while it still works.
 */
export function outputOfTask(id: string, task: Task): AgentOutput | undefined {
  const state = task.status?.state;
  const said = textOf(task.status?.message?.parts);
  const metadata = ids(task.contextId, task.id);
  switch (phaseOf(state)) {
    case 'working':
      return undefined;
    case 'completed': {
      const texts = task.artifacts.map((a) => textOf(a.parts)).filter((t) => t !== '');
      const results = [
        ...task.artifacts.map((a) => dataOf(a.parts)),
        dataOf(task.status?.message?.parts),
      ].filter((r) => r.length > 0);
      const text = texts.length > 0 ? texts.join('\n\n') : said;
      return {
        id,
        status: 'completed',
        ...(text ? { responseMessage: text } : {}),
        ...(results.length > 0 ? { structuredResults: results } : {}),
        metadata,
      };
    }
    case 'input_required': {
      const asked = statusKey(task.status);
      return {
        id,
        status: 'input_required',
        ...(said ? { responseMessage: said } : {}),
        metadata: { ...metadata, ...(asked ? { [QUESTION_KEY]: asked } : {}) },
      };
    }
    case 'failed':
      return {
        id,
        status: 'fatal_error',
        errorMessage: `the agent's task ended ${stateName(state)}${said ? `: ${said}` : ''}`,
        metadata,
      };
  }
}

function ids(contextId: string | undefined, taskId: string | undefined): Record<string, string> {
  return {
    ...(contextId ? { context_id: contextId } : {}),
    ...(taskId ? { task_id: taskId } : {}),
  };
}
