/**
 * What an SDK `AgentExecutor` publishes, in a few calls: parts, agent messages and the events of
 * one task (opened, status changes, artifacts, cancelled). The demo shopping agent and the test
 * agents are written with them.
 */
import { randomUUID } from 'node:crypto';
import { type Message, type Part, Role, TaskState } from '@a2a-js/sdk';
import type { ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import { textPart } from '../a2a/index.js';

/** The text parts of a message, joined by spaces. */
export function messageText(message: Message): string {
  return message.parts
    .flatMap((p) => (p.content?.$case === 'text' ? [p.content.value] : []))
    .join(' ');
}

/** The data parts of a message. */
export function messageData(message: Message): Record<string, unknown>[] {
  return message.parts.flatMap((p) => (p.content?.$case === 'data' ? [p.content.value] : []));
}

export function agentMessage(parts: Part[], ctx?: { contextId: string; taskId?: string }): Message {
  return {
    messageId: randomUUID(),
    contextId: ctx?.contextId ?? '',
    taskId: ctx?.taskId ?? '',
    role: Role.ROLE_AGENT,
    parts,
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

/** The events of the task a request runs in. */
export interface TaskEvents {
  /** Opens the execution with its task, as the SDK requires of every one (a follow-up too). */
  open(): void;
  /** A status change, with what the agent says, if anything. */
  status(state: TaskState, said?: string): void;
  /** An artifact of the task. */
  artifact(parts: Part[]): void;
}

export function taskEvents(bus: ExecutionEventBus, ctx: RequestContext): TaskEvents {
  return {
    open() {
      bus.publish({
        kind: 'task',
        data: ctx.task
          ? {
              ...ctx.task,
              status: {
                state: TaskState.TASK_STATE_WORKING,
                message: undefined,
                timestamp: undefined,
              },
            }
          : {
              id: ctx.taskId,
              contextId: ctx.contextId,
              status: {
                state: TaskState.TASK_STATE_SUBMITTED,
                message: undefined,
                timestamp: undefined,
              },
              artifacts: [],
              history: [ctx.userMessage],
              metadata: undefined,
            },
      });
    },
    status(state, said) {
      bus.publish({
        kind: 'statusUpdate',
        data: {
          taskId: ctx.taskId,
          contextId: ctx.contextId,
          status: {
            state,
            message: said
              ? agentMessage([textPart(said)], { contextId: ctx.contextId, taskId: ctx.taskId })
              : undefined,
            timestamp: new Date().toISOString(),
          },
          metadata: undefined,
        },
      });
    },
    artifact(parts) {
      bus.publish({
        kind: 'artifactUpdate',
        data: {
          taskId: ctx.taskId,
          contextId: ctx.contextId,
          artifact: {
            artifactId: randomUUID(),
            name: 'result',
            description: '',
            parts,
            metadata: undefined,
            extensions: [],
          },
          append: false,
          lastChunk: true,
          metadata: undefined,
        },
      });
    },
  };
}

/** Publishes that a task was cancelled (what `cancelTask` of an executor does). */
export function publishCancelled(bus: ExecutionEventBus, taskId: string): void {
  bus.publish({
    kind: 'statusUpdate',
    data: {
      taskId,
      contextId: '',
      status: { state: TaskState.TASK_STATE_CANCELED, message: undefined, timestamp: undefined },
      metadata: undefined,
    },
  });
  bus.finished();
}
