/**
 * A scripted A2A agent built with the SDK, on loopback, for the tests: what it does depends on
 * the first word of the user's text.
 * - `hello …`: answers with a plain message (text and a data part);
 * - `order`: a task that asks which trim (input required), then completes on the same task with
 *   an artifact (text and data) once the answer comes;
 * - `login`: a task that needs authentication first (auth required), then completes;
 * - `long`: a task that says it is working, then completes once the test calls `finishLong()`;
 * - `chatty`: a task that says `Step 1 of 5.`, then (after `finishLong()`) steps 2 to 4, then
 *   (after `finishLong()` again) step 5, an artifact and completed;
 * - `fail`: a task that fails; anything else: an echo message.
 * An answer to a task that asked opens with the task as it stands, still asking, as an SDK agent
 * written in the SDK's usual style does (`followUps: 'working'` opens it working instead). Then
 * the answer completes the task; an answer `later <trim>` first waits for `finishLong()`; an
 * answer `again` asks another question.
 * It records every message it receives (with the request's headers), every task it opens and
 * every cancelled task.
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
  /** The ids of the tasks it opened, one each. */
  readonly opened: string[];
  /** Completes the `long` tasks waiting now (and moves the others that wait on). */
  finishLong(): void;
  /** Runs `hook` whenever a message arrives, before the agent works on it (none by default). */
  onReceive(hook: (() => void) | undefined): void;
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
    /** How an answer to a task that asked opens it: as it stands (default), or working. */
    followUps?: 'snapshot' | 'working';
  } = {},
): Promise<TestA2AAgent> {
  const received: ReceivedMessage[] = [];
  const headers: Record<string, string | string[] | undefined>[] = [];
  const bindings: A2ABinding[] = [];
  const cancelled: string[] = [];
  const opened: string[] = [];
  let waiting: (() => void)[] = [];
  let broken = false;
  let receiveHook: (() => void) | undefined;
  const gate = () => new Promise<void>((resolve) => waiting.push(resolve));

  const executor: AgentExecutor = {
    async execute(ctx, bus) {
      const message = ctx.userMessage;
      const said = messageText(message);
      const events = taskEvents(bus, ctx);
      const task = {
        ...events,
        open: () => {
          if (!ctx.task) opened.push(ctx.taskId);
          events.open();
        },
      };
      received.push({
        text: said,
        taskId: message.taskId,
        contextId: message.contextId,
        messageId: message.messageId,
        metadata: { ...(message.metadata ?? {}) },
        data: messageData(message),
      });
      receiveHook?.();
      const word = said.trim().split(/\s+/)[0]?.toLowerCase() ?? '';
      if (broken) {
        task.open();
        task.status(TaskState.TASK_STATE_FAILED, 'the agent is broken');
        bus.finished();
        return;
      }
      const asked = ctx.task;
      const state = asked?.status?.state;
      if (
        asked &&
        (state === TaskState.TASK_STATE_INPUT_REQUIRED ||
          state === TaskState.TASK_STATE_AUTH_REQUIRED)
      ) {
        if (options.followUps === 'working') task.open();
        else bus.publish({ kind: 'task', data: asked });
        const later = word === 'later';
        if (later) await gate();
        if (word === 'again') {
          task.status(TaskState.TASK_STATE_INPUT_REQUIRED, 'Which colour would you like?');
          bus.finished();
          return;
        }
        const trim = later ? said.trim().split(/\s+/).slice(1).join(' ') : said;
        task.artifact([
          text(`Ordered the ${trim} trim.`),
          data({ trim, order_id: `A-${received.length}` }),
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
        case 'chatty': {
          task.open();
          task.status(TaskState.TASK_STATE_WORKING, 'Step 1 of 5.');
          await gate();
          for (const n of [2, 3, 4]) task.status(TaskState.TASK_STATE_WORKING, `Step ${n} of 5.`);
          await gate();
          task.status(TaskState.TASK_STATE_WORKING, 'Step 5 of 5.');
          task.artifact([text('All five steps done.')]);
          task.status(TaskState.TASK_STATE_COMPLETED);
          break;
        }
        case 'long': {
          task.open();
          task.status(TaskState.TASK_STATE_WORKING, 'Checking the stock…');
          await gate();
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
    opened,
    finishLong,
    onReceive(hook) {
      receiveHook = hook;
    },
    setBroken(value) {
      broken = value;
    },
    async close() {
      finishLong();
      await host.close();
    },
  };
}
