import { Message, type SendMessageRequest } from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';
import { pushToken } from '../../../src/a2a/push.js';
import { send } from '../../../src/a2a/send.js';
import type { AgentInput } from '../../../src/assistant/index.js';
import { JobDeadlineError } from '../../../src/runtime/index.js';
import {
  callsOf,
  events,
  scriptedA2AAgent,
  sentRun,
  stepWith,
  taskOf,
} from './scriptedA2AAgent.js';

const T0 = 1_000_000;
const KEY = 'k'.repeat(48);

const input = (metadata: Record<string, unknown> = {}): AgentInput => ({
  id: 'in-1',
  userMessage: 'Find me a bike',
  slots: [],
  conversationHistory: '',
  events: [],
  metadata,
});

const agentMessage = (text: string) =>
  Message.fromJSON({ messageId: 'a-1', role: 'ROLE_AGENT', parts: [{ text }] });

const working = (extra: Record<string, unknown> = {}) =>
  taskOf({ status: { state: 'TASK_STATE_WORKING' }, ...extra });

/** The request of the agent's only `sendMessage` call. */
function sentRequest(calls: Parameters<typeof callsOf>[0]): SendMessageRequest {
  const sent = callsOf(calls, 'sendMessage');
  expect(sent).toHaveLength(1);
  return sent[0] as SendMessageRequest;
}

describe('send', () => {
  it('ends the run with the message the agent answers, through processOutput', async () => {
    const shop = scriptedA2AAgent({ sendMessage: () => agentMessage('Here.') });
    const { step } = stepWith(shop.agent, shop.fetch, {
      now: () => T0,
      processOutput: async (output) => ({
        ...output,
        responseMessage: `${output.responseMessage}!`,
      }),
    });

    const result = await send(step, sentRun({ input: input() }), input(), {});

    expect(result.next).toEqual({
      type: 'done',
      output: { id: 'run-1', status: 'completed', responseMessage: 'Here.!', metadata: {} },
    });
    expect(result.data).toEqual(sentRun({ waitingSince: T0 }));
  });

  it('sends what processInput makes of the input, taking any output and the task at once, with no push', async () => {
    const shop = scriptedA2AAgent({ sendMessage: () => agentMessage('Here.') });
    const { step } = stepWith(shop.agent, shop.fetch, {
      processInput: async (raw) => ({ ...raw, userMessage: `${raw.userMessage}, please` }),
    });

    await send(step, sentRun({ input: input() }), input(), {});

    const request = sentRequest(shop.calls);
    expect(request.message?.messageId).toBe('msg-1');
    expect(request.message?.parts[0]?.content).toEqual({
      $case: 'text',
      value: 'Find me a bike, please',
    });
    expect(request.configuration?.returnImmediately).toBe(true);
    expect(request.configuration?.acceptedOutputModes).toEqual([]);
    expect(request.configuration?.taskPushNotificationConfig).toBeUndefined();
  });

  it('adds what the pre_call_hook returns to the message, called with the sender and agent', async () => {
    const shop = scriptedA2AAgent(
      { sendMessage: () => agentMessage('Here.') },
      { configuration: { pre_call_hook: 'hooks.sign' } },
    );
    const { step } = stepWith(shop.agent, shop.fetch);
    const seen: unknown[] = [];
    const hooks = {
      'hooks.sign': (context: unknown) => {
        seen.push(context);
        return { signature: 'sig-1' };
      },
    };

    await send(step, sentRun({ input: input() }), input({ sender_id: 'bob' }), { hooks });
    await send(step, sentRun({ input: input() }), input({ sender_id: '' }), { hooks });

    expect(seen).toEqual([
      { senderId: 'bob', agentId: 'shop' },
      { senderId: 'alice', agentId: 'shop' },
    ]);
    const [first] = callsOf(shop.calls, 'sendMessage') as SendMessageRequest[];
    expect(first?.message?.metadata).toEqual({ sender_id: 'bob', signature: 'sig-1' });
  });

  it('sends no hook metadata when the named hook is not among the project’s', async () => {
    const shop = scriptedA2AAgent(
      { sendMessage: () => agentMessage('Here.') },
      { configuration: { pre_call_hook: 'hooks.sign' } },
    );
    const { step } = stepWith(shop.agent, shop.fetch);

    await send(step, sentRun({ input: input() }), input(), {
      hooks: { 'hooks.other': () => ({ signature: 'sig-1' }) },
    });

    expect(sentRequest(shop.calls).message?.metadata).toEqual({});
  });

  it('sends no hook metadata when the project has no hooks at all', async () => {
    const shop = scriptedA2AAgent(
      { sendMessage: () => agentMessage('Here.') },
      { configuration: { pre_call_hook: 'hooks.sign' } },
    );
    const { step } = stepWith(shop.agent, shop.fetch);

    const result = await send(step, sentRun({ input: input() }), input(), {});

    expect(sentRequest(shop.calls).message?.metadata).toEqual({});
    expect(result.next).toMatchObject({ type: 'done', output: { status: 'completed' } });
  });

  it('registers a push URL for the run when the card offers push, and the run waits for it', async () => {
    const shop = scriptedA2AAgent(
      { sendMessage: () => working() },
      {
        pushNotifications: true,
        configuration: { push_notification_url: 'https://sb.example.com' },
      },
    );
    const { step } = stepWith(shop.agent, shop.fetch, { now: () => T0 });

    const result = await send(step, sentRun({ input: input() }), input(), {
      pushKey: async () => KEY,
      pushBaseUrl: () => 'https://local.example.com',
    });

    expect(sentRequest(shop.calls).configuration?.taskPushNotificationConfig).toMatchObject({
      id: 'run-1',
      url: 'https://sb.example.com/a2a/push/alice/run-1',
      token: pushToken(KEY, 'alice', 'run-1'),
      tenant: '',
      taskId: '',
    });
    expect(result.data).toMatchObject({ push: true, taskId: 't-1', contextId: 'c-1' });
    expect(result.next).toEqual({ type: 'continue', delayMs: 60_000 });
  });

  it('takes the push base URL from the runner when the agent names none', async () => {
    const shop = scriptedA2AAgent({ sendMessage: () => working() }, { pushNotifications: true });
    const { step } = stepWith(shop.agent, shop.fetch);

    await send(step, sentRun({ input: input() }), input(), {
      pushKey: async () => KEY,
      pushBaseUrl: () => 'https://local.example.com',
    });

    expect(sentRequest(shop.calls).configuration?.taskPushNotificationConfig?.url).toBe(
      'https://local.example.com/a2a/push/alice/run-1',
    );
  });

  it('registers no push URL without a base URL, a key, or push on the card; the run polls', async () => {
    const cases = [
      [{ pushNotifications: true }, { pushKey: async () => KEY }],
      [{ pushNotifications: true }, { pushBaseUrl: () => 'https://local.example.com' }],
      [{}, { pushKey: async () => KEY, pushBaseUrl: () => 'https://local.example.com' }],
    ] as const;
    for (const [card, options] of cases) {
      const shop = scriptedA2AAgent({ sendMessage: () => working() }, card);
      const { step } = stepWith(shop.agent, shop.fetch);

      const result = await send(step, sentRun({ input: input() }), input(), options);

      expect(sentRequest(shop.calls).configuration?.taskPushNotificationConfig).toBeUndefined();
      expect(result.data.push).toBe(false);
      expect(result.next).toEqual({ type: 'continue', delayMs: 500 });
    }
  });

  it('sends once, with no push and no stream, to an agent whose card names no capabilities', async () => {
    const shop = scriptedA2AAgent({ sendMessage: () => working() });
    const { card } = shop.agent.agentCard as { card: Record<string, unknown> };
    delete card.capabilities;
    const { step } = stepWith(shop.agent, shop.fetch);

    const result = await send(step, sentRun({ input: input() }), input(), {
      pushKey: async () => KEY,
      pushBaseUrl: () => 'https://local.example.com',
    });

    expect(sentRequest(shop.calls).configuration?.taskPushNotificationConfig).toBeUndefined();
    expect(callsOf(shop.calls, 'sendMessageStream')).toEqual([]);
    expect(result.data).toMatchObject({ push: false, taskId: 't-1' });
  });

  it('takes a question in the answer to a new message as the agent’s answer', async () => {
    const question = taskOf({
      status: {
        state: 'TASK_STATE_INPUT_REQUIRED',
        message: { messageId: 'q-1', role: 'ROLE_AGENT', parts: [{ text: 'Which size?' }] },
      },
    });
    const shop = scriptedA2AAgent({ sendMessage: () => question });
    const { step } = stepWith(shop.agent, shop.fetch);

    const result = await send(step, sentRun({ input: input() }), input(), {});

    expect(result.next).toMatchObject({
      type: 'done',
      output: { status: 'input_required', responseMessage: 'Which size?' },
    });
  });

  it('waits on the first answer to a message that continues a task while it still asks', async () => {
    const question = taskOf({
      status: {
        state: 'TASK_STATE_INPUT_REQUIRED',
        message: { messageId: 'q-1', role: 'ROLE_AGENT', parts: [{ text: 'Which size?' }] },
      },
      history: [],
    });
    const shop = scriptedA2AAgent({ sendMessage: () => question, getTask: () => question });
    const { step } = stepWith(shop.agent, shop.fetch);

    const result = await send(
      step,
      sentRun({ input: input() }),
      input({ task_id: 't-1', context_id: 'c-1' }),
      {},
    );

    expect(result.next).toEqual({ type: 'continue', delayMs: 500 });
    expect(sentRequest(shop.calls).message).toMatchObject({ taskId: 't-1', contextId: 'c-1' });
  });

  it('follows the task instead of sending again when the task already holds the message', async () => {
    const holding = taskOf({
      id: 't-9',
      contextId: 'c-9',
      status: { state: 'TASK_STATE_COMPLETED' },
      artifacts: [{ artifactId: 'a', parts: [{ text: 'Size M.' }] }],
      history: [{ messageId: 'msg-1', role: 'ROLE_USER', parts: [{ text: 'M' }] }],
    });
    const shop = scriptedA2AAgent({ getTask: () => holding });
    const { step } = stepWith(shop.agent, shop.fetch, { now: () => T0 });

    const result = await send(step, sentRun({ input: input() }), input({ task_id: 't-9' }), {});

    expect(callsOf(shop.calls, 'getTask')).toEqual([
      expect.objectContaining({ tenant: '', id: 't-9' }),
    ]);
    expect(callsOf(shop.calls, 'sendMessage')).toEqual([]);
    expect(result.next).toMatchObject({
      type: 'done',
      output: { status: 'completed', responseMessage: 'Size M.' },
    });
    expect(result.data).toMatchObject({ taskId: 't-9', contextId: 'c-9', waitingSince: T0 });
    expect(result.data.input).toBeUndefined();
  });

  it('reads the stream again of a task that holds the message, when the card streams', async () => {
    const holding = working({
      id: 't-9',
      history: [{ messageId: 'msg-1', role: 'ROLE_USER', parts: [{ text: 'M' }] }],
    });
    const done = taskOf({
      id: 't-9',
      status: { state: 'TASK_STATE_COMPLETED' },
      artifacts: [{ artifactId: 'a', parts: [{ text: 'Size M.' }] }],
    });
    const shop = scriptedA2AAgent(
      { getTask: () => holding, resubscribe: () => [events.task(done)] },
      { streaming: true },
    );
    const { step } = stepWith(shop.agent, shop.fetch);

    const result = await send(step, sentRun({ input: input() }), input({ task_id: 't-9' }), {});

    expect(callsOf(shop.calls, 'resubscribe')).toEqual([expect.objectContaining({ id: 't-9' })]);
    expect(callsOf(shop.calls, 'sendMessageStream')).toEqual([]);
    expect(result.next).toMatchObject({ type: 'done', output: { responseMessage: 'Size M.' } });
  });

  it('sends the message when the task it continues does not hold it yet', async () => {
    const shop = scriptedA2AAgent({
      getTask: () =>
        working({ history: [{ messageId: 'other', role: 'ROLE_USER', parts: [{ text: 'M' }] }] }),
      sendMessage: () => agentMessage('Noted.'),
    });
    const { step } = stepWith(shop.agent, shop.fetch);

    const result = await send(step, sentRun({ input: input() }), input({ task_id: 't-1' }), {});

    expect(sentRequest(shop.calls).message?.taskId).toBe('t-1');
    expect(result.next).toMatchObject({ type: 'done', output: { responseMessage: 'Noted.' } });
  });

  it('sends the message when the task it continues cannot be read', async () => {
    const shop = scriptedA2AAgent({
      getTask: () => {
        throw new Error('no such task');
      },
      sendMessage: () => agentMessage('Noted.'),
    });
    const { step } = stepWith(shop.agent, shop.fetch);

    const result = await send(step, sentRun({ input: input() }), input({ task_id: 't-1' }), {});

    expect(callsOf(shop.calls, 'sendMessage')).toHaveLength(1);
    expect(result.next).toMatchObject({ type: 'done', output: { responseMessage: 'Noted.' } });
  });

  it('fails for another try, sending nothing, when the task it continues is out of reach', async () => {
    const shop = scriptedA2AAgent({ sendMessage: () => agentMessage('Noted.') });
    const busy: typeof fetch = async (request, init) =>
      init?.method === 'POST' && String(init.body).includes('GetTask')
        ? new Response('busy', { status: 503 })
        : shop.fetch(request, init);
    const { step } = stepWith(shop.agent, busy);

    const failure = await send(
      step,
      sentRun({ input: input() }),
      input({ task_id: 't-1' }),
      {},
    ).then(
      () => undefined,
      (error: unknown) => error,
    );

    expect(failure).toMatchObject({
      name: 'A2AUnavailableError',
      transient: true,
      message: 'A2A agent shop: the agent answered HTTP 503',
    });
    expect(callsOf(shop.calls, 'sendMessage')).toEqual([]);
  });

  it('ends with the job’s own reason, sending nothing, when the job ends while the task it continues is read', async () => {
    const controller = new AbortController();
    const ended = new JobDeadlineError(60_000);
    const shop = scriptedA2AAgent({
      getTask: () => {
        controller.abort(ended);
        return new Promise<never>(() => {});
      },
      sendMessage: () => agentMessage('Noted.'),
    });
    // Like fetch: a request ends with its signal's reason.
    const honouring: typeof fetch = (request, init) =>
      new Promise((resolve, reject) => {
        const signal = init?.signal;
        if (signal?.aborted) return reject(signal.reason);
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
        shop.fetch(request, init).then(resolve, reject);
      });
    const { step } = stepWith(shop.agent, honouring, { signal: controller.signal });

    const failure = await send(
      step,
      sentRun({ input: input() }),
      input({ task_id: 't-1' }),
      {},
    ).then(
      () => undefined,
      (error: unknown) => error,
    );

    expect(failure).toBe(ended);
    expect(callsOf(shop.calls, 'sendMessage')).toEqual([]);
  });

  it('sends the message over a stream when the card streams', async () => {
    const shop = scriptedA2AAgent(
      { sendMessageStream: () => [events.message(agentMessage('Streamed.'))] },
      { streaming: true },
    );
    const { step } = stepWith(shop.agent, shop.fetch);

    const result = await send(step, sentRun({ input: input() }), input(), {});

    expect(callsOf(shop.calls, 'sendMessageStream')).toHaveLength(1);
    expect(result.next).toMatchObject({ type: 'done', output: { responseMessage: 'Streamed.' } });
  });
});
