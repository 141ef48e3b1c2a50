/**
 * The first step of an A2A run: the user's message (through the agent class's `processInput` and
 * the agent's `pre_call_hook`) goes out, with a push URL when the agent offers push; the answer,
 * or the task's first updates, come back at once or from a stream. An answer to a task that the
 * task already holds (the step ran before, and its worker died after sending) is not sent again:
 * the task is followed instead.
 */
import type { SendMessageRequest, Task, TaskPushNotificationConfig } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import type { A2ASubAgent, AgentInput } from '../assistant/index.js';
import type { PreCallHook } from '../extensions/index.js';
import { runPreCallHook } from '../mcp/preCallHooks.js';
import type { StepContext } from '../runtime/index.js';
import { isTask } from './connection.js';
import { outgoingMessage, outputOfMessage } from './messages.js';
import { finish, onTask } from './outcomes.js';
import { pushToken, pushUrl } from './push.js';
import { type A2ARunData, idsOf } from './runData.js';
import type { A2AStep, A2AStepResult } from './step.js';
import { resubscribe, sendStream } from './stream.js';

/** The runner's options that sending reads. */
export interface SendOptions {
  /** The project's `pre_call_hook` functions, by dotted path. */
  readonly hooks?: Readonly<Record<string, PreCallHook>>;
  /** The key push tokens are derived from; without it no push URL is registered. */
  readonly pushKey?: () => Promise<string>;
  /** The base URL for push notifications when an agent configures none (the local stack's). */
  readonly pushBaseUrl?: () => string | undefined;
}

/** The first step: the message goes out; the answer, or the task's first updates, come back. */
export async function send(
  step: A2AStep,
  data: A2ARunData,
  raw: AgentInput,
  options: SendOptions,
): Promise<A2AStepResult> {
  const { agent, connection, context, scope } = step;
  const input = await step.custom().processInput(raw);
  const hook = agent.configuration.pre_call_hook;
  const hookFn = hook ? options.hooks?.[hook] : undefined;
  const credentials =
    hook && hookFn
      ? await runPreCallHook(hook, hookFn, {
          senderId: stringOr(input.metadata.sender_id, context.conversationId),
          agentId: agent.name,
        })
      : {};
  const client = await connection.client(scope);
  const card = await connection.card(scope);
  const push = await pushConfig(options, agent, context, card.capabilities?.pushNotifications);
  const request: SendMessageRequest = {
    tenant: '',
    message: outgoingMessage(input, data.messageId, credentials),
    configuration: {
      acceptedOutputModes: [],
      taskPushNotificationConfig: push,
      returnImmediately: true,
    },
    metadata: undefined,
  };
  const sent: A2ARunData = {
    ...without(data, 'input'),
    push: push !== undefined,
    waitingSince: step.now(),
  };
  const streams = card.capabilities?.streaming === true;
  const continued = request.message?.taskId || undefined;
  const holding = continued
    ? await taskHolding(step, client, continued, data.messageId)
    : undefined;
  if (holding) {
    const run = { ...sent, ...idsOf(holding) };
    return streams ? resubscribe(step, run) : onTask(step, run, holding);
  }
  if (streams) return sendStream(step, client, sent, request);
  const answer = await client.sendMessage(request, await connection.requestOptions(scope, client));
  if (!isTask(answer)) return finish(step, sent, outputOfMessage(context.runId, answer));
  return onTask(step, { ...sent, ...idsOf(answer) }, answer, [], continued !== undefined);
}

/**
 * The task the message continues, if it already holds the message. A task that cannot be read is
 * left to the send, which says what is wrong with it; a failure worth another try is thrown.
 */
async function taskHolding(
  step: A2AStep,
  client: Client,
  taskId: string,
  messageId: string,
): Promise<Task | undefined> {
  const { connection, scope } = step;
  try {
    const task = await client.getTask(
      { tenant: '', id: taskId },
      await connection.requestOptions(scope, client),
    );
    return task.history.some((m) => m.messageId === messageId) ? task : undefined;
  } catch (error) {
    if (scope.signal.aborted) throw error;
    const failure = connection.failure(error);
    if (failure.transient) throw failure;
    return undefined;
  }
}

async function pushConfig(
  options: SendOptions,
  agent: A2ASubAgent,
  context: StepContext,
  offered: boolean | undefined,
): Promise<TaskPushNotificationConfig | undefined> {
  const base = agent.configuration.push_notification_url ?? options.pushBaseUrl?.();
  if (!base || !offered || !options.pushKey) return undefined;
  const key = await options.pushKey();
  return {
    tenant: '',
    id: context.runId,
    taskId: '',
    url: pushUrl(base, context.conversationId, context.runId),
    token: pushToken(key, context.conversationId, context.runId),
    authentication: undefined,
  };
}

function without<T extends object, K extends keyof T>(value: T, key: K): Omit<T, K> {
  const { [key]: _dropped, ...rest } = value;
  return rest;
}

function stringOr(value: unknown, fallback: string): string {
  return typeof value === 'string' && value !== '' ? value : fallback;
}
