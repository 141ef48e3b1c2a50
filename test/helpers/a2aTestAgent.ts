/**
 * A scripted A2A agent built with the SDK, on loopback, for the tests: what it does depends on
 * the first word of the user's text.
 * - `hello …`: answers with a plain message (text and a data part);
 * - `order`: a task that asks which trim (input required), then completes on the same task with
 *   an artifact (text and data) once the answer comes;
 * - `login`: a task that needs authentication first (auth required), then completes;
 * - `long`: a task that says it is working, then completes once the test calls `finishLong()`;
 * - `fail`: a task that fails; anything else: an echo message.
 * It records every message it receives (with the request's headers) and every cancelled task.
 */
import { TaskState } from '@a2a-js/sdk';
import type { AgentExecutor } from '@a2a-js/sdk/server';
import { dataPart as data, textPart as text } from '../../src/a2a/index.js';
import {
  type A2ABinding,
  type A2AHost,
  type A2AHostVersions,
  startA2AHost,
} from '../../src/demo/a2aHost.js';
import {
  agentMessage,
  messageData,
  messageText,
  publishCancelled,
  taskEvents,
} from '../../src/demo/a2aTask.js';

export interface ReceivedMessage {
  readonly text: string;
  readonly taskId: string;
  readonly contextId: string;
  readonly messageId: string;
  readonly metadata: Record<string, unknown>;
  readonly data: unknown[];
}

export interface TestA2AAgent {
  readonly host: A2AHost;
  readonly url: string;
  readonly cardUrl: string;
  readonly received: ReceivedMessage[];
  readonly headers: Record<string, string | string[] | undefined>[];
  /** The binding of each request, beside its headers. */
  readonly bindings: A2ABinding[];
  readonly cancelled: string[];
  /** Completes the `long` tasks waiting now. */
  finishLong(): void;
  /** Makes the health check (and every other message) fail from now on, or work again. */
  setBroken(broken: boolean): void;
  close(): Promise<void>;
}

export async function startTestA2AAgent(
  options: {
    versions?: A2AHostVersions;
    streaming?: boolean;
    pushNotifications?: boolean;
    apiKey?: string;
    /** Also serve gRPC, offered last in the card. */
    grpc?: boolean;
  } = {},
): Promise<TestA2AAgent> {
  const received: ReceivedMessage[] = [];
  const headers: Record<string, string | string[] | undefined>[] = [];
  const bindings: A2ABinding[] = [];
  const cancelled: string[] = [];
  let waiting: (() => void)[] = [];
  let broken = false;

  const executor: AgentExecutor = {
    async execute(ctx, bus) {
      const message = ctx.userMessage;
      const said = messageText(message);
      const task = taskEvents(bus, ctx);
      received.push({
        text: said,
        taskId: message.taskId,
        contextId: message.contextId,
        messageId: message.messageId,
        metadata: { ...(message.metadata ?? {}) },
        data: messageData(message),
      });
      if (broken) {
        task.open();
        task.status(TaskState.TASK_STATE_FAILED, 'the agent is broken');
        bus.finished();
        return;
      }
      const word = said.trim().split(/\s+/)[0]?.toLowerCase() ?? '';
      const state = ctx.task?.status?.state;
      if (
        state === TaskState.TASK_STATE_INPUT_REQUIRED ||
        state === TaskState.TASK_STATE_AUTH_REQUIRED
      ) {
        task.open();
        task.artifact([
          text(`Ordered the ${said} trim.`),
          data({ trim: said, order_id: `A-${received.length}` }),
        ]);
        task.status(TaskState.TASK_STATE_COMPLETED);
        bus.finished();
        return;
      }
      switch (word) {
        case 'order':
          task.open();
          task.status(TaskState.TASK_STATE_INPUT_REQUIRED, 'Which trim would you like?');
          break;
        case 'login':
          task.open();
          task.status(
            TaskState.TASK_STATE_AUTH_REQUIRED,
            'Please sign in at the dealership first.',
          );
          break;
        case 'long': {
          task.open();
          task.status(TaskState.TASK_STATE_WORKING, 'Checking the stock…');
          await new Promise<void>((resolve) => waiting.push(resolve));
          if (cancelled.includes(ctx.taskId)) break;
          task.artifact([text('The car is in stock.'), data({ in_stock: true })]);
          task.status(TaskState.TASK_STATE_COMPLETED);
          break;
        }
        case 'fail':
          task.open();
          task.status(TaskState.TASK_STATE_FAILED, 'Out of stock.');
          break;
        case 'hello':
          bus.publish({
            kind: 'message',
            data: agentMessage([text(`Hi! You said: ${said}`), data({ greeted: true })], {
              contextId: ctx.contextId,
            }),
          });
          break;
        default:
          bus.publish({ kind: 'message', data: agentMessage([text(`echo: ${said}`)], ctx) });
      }
      bus.finished();
    },
    async cancelTask(taskId, bus) {
      cancelled.push(taskId);
      publishCancelled(bus, taskId);
    },
  };

  const host = await startA2AHost({
    name: 'test agent',
    description: 'A scripted agent for the tests.',
    executor,
    ...(options.versions ? { versions: options.versions } : {}),
    ...(options.streaming !== undefined ? { streaming: options.streaming } : {}),
    ...(options.pushNotifications !== undefined
      ? { pushNotifications: options.pushNotifications }
      : {}),
    ...(options.grpc ? { grpc: true } : {}),
    onRequest: (seen, binding) => {
      headers.push({ ...seen });
      bindings.push(binding);
    },
    ...(options.apiKey
      ? { authorize: (request) => request.headers.authorization === `Bearer ${options.apiKey}` }
      : {}),
  });
  const finishLong = (): void => {
    const now = waiting;
    waiting = [];
    for (const resolve of now) resolve();
  };
  return {
    host,
    url: host.url,
    cardUrl: host.cardUrl,
    received,
    headers,
    bindings,
    cancelled,
    finishLong,
    setBroken(value) {
      broken = value;
    },
    async close() {
      finishLong();
      await host.close();
    },
  };
}
