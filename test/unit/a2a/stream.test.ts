import { Message, type SendMessageRequest, type StreamResponse } from '@a2a-js/sdk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  resubscribe,
  STREAM_FLUSH_MS,
  STREAM_WINDOW_MS,
  sendStream,
} from '../../../src/a2a/stream.js';
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

afterEach(() => {
  vi.useRealTimers();
});

const said = (messageId: string, text: string) => ({
  messageId,
  role: 'ROLE_AGENT',
  parts: [{ text }],
});

const working = (message?: ReturnType<typeof said>) =>
  taskOf({ status: { state: 'TASK_STATE_WORKING', ...(message ? { message } : {}) } });

const completed = (text: string) =>
  taskOf({
    status: { state: 'TASK_STATE_COMPLETED' },
    artifacts: [{ artifactId: 'a', parts: [{ text }] }],
  });

/** Events, then a stream that stays open until its reader leaves. */
async function* thenOpen(...sent: StreamResponse[]): AsyncGenerator<StreamResponse> {
  yield* sent;
  await new Promise(() => {});
}

const request = (taskId = ''): SendMessageRequest => ({
  tenant: '',
  message: Message.fromJSON({
    messageId: 'msg-1',
    taskId,
    role: 'ROLE_USER',
    parts: [{ text: 'Find me a bike' }],
  }),
  configuration: undefined,
  metadata: undefined,
});

async function opened(
  script: Parameters<typeof scriptedA2AAgent>[0],
  options: Parameters<typeof scriptedA2AAgent>[1] = {},
  now: () => number = () => T0,
) {
  const shop = scriptedA2AAgent(script, { streaming: true, ...options });
  const { step, cancelled } = stepWith(shop.agent, shop.fetch, { now });
  const client = await step.connection.client(step.scope);
  return { shop, step, client, cancelled };
}

const texts = (result: { messages?: readonly { text?: string }[] }) =>
  (result.messages ?? []).map((m) => m.text);

describe('sendStream', () => {
  it('stops as soon as the stream names the task, to read on at once in the next step', async () => {
    const { step, client } = await opened({
      sendMessageStream: () => thenOpen(events.task(working(said('s-1', 'Looking.')))),
    });

    const result = await sendStream(step, client, sentRun({ waitingSince: T0 }), request());

    expect(result.next).toEqual({ type: 'continue' });
    expect(result.data).toMatchObject({ taskId: 't-1', contextId: 'c-1', stream: true });
    expect(texts(result)).toEqual(['Looking.']);
  });

  it('ends the run with a message the agent streams, after what it said', async () => {
    const { step, client } = await opened({
      sendMessageStream: () => [
        events.message(Message.fromJSON({ ...said('a-1', 'Here.'), contextId: 'c-7' })),
      ],
    });

    const result = await sendStream(step, client, sentRun({ waitingSince: T0 }), request());

    expect(result.next).toEqual({
      type: 'done',
      output: {
        id: 'run-1',
        status: 'completed',
        responseMessage: 'Here.',
        metadata: { context_id: 'c-7' },
      },
    });
  });

  it('takes a question as the answer to a new message, but not the task a continuing message found', async () => {
    const question = taskOf({
      status: { state: 'TASK_STATE_INPUT_REQUIRED', message: said('q-1', 'Which size?') },
    });
    const fresh = await opened({ sendMessageStream: () => thenOpen(events.task(question)) });
    const continuing = await opened({ sendMessageStream: () => thenOpen(events.task(question)) });

    const answered = await sendStream(fresh.step, fresh.client, sentRun(), request());
    const waiting = await sendStream(continuing.step, continuing.client, sentRun(), request('t-1'));

    expect(answered.next).toMatchObject({
      type: 'done',
      output: { status: 'input_required', responseMessage: 'Which size?' },
    });
    expect(waiting.next).toEqual({ type: 'continue' });
    expect(waiting.messages).toEqual([]);
  });

  it('takes a new question in a status update as the answer to a continuing message', async () => {
    const { step, client } = await opened({
      sendMessageStream: () =>
        thenOpen(
          events.status({
            state: 'TASK_STATE_INPUT_REQUIRED',
            message: said('q-2', 'Which colour?'),
          }),
        ),
    });

    const result = await sendStream(step, client, sentRun(), request('t-1'));

    expect(result.next).toMatchObject({
      type: 'done',
      output: { status: 'input_required', responseMessage: 'Which colour?' },
    });
  });

  it('takes the task named by an artifact update that carries no artifact', async () => {
    const empty = {
      payload: {
        $case: 'artifactUpdate',
        value: {
          taskId: 't-3',
          contextId: 'c-3',
          artifact: undefined,
          append: true,
          lastChunk: false,
          metadata: undefined,
        },
      },
    } as StreamResponse;
    const { step, client } = await opened({ sendMessageStream: () => thenOpen(empty) });

    const result = await sendStream(step, client, sentRun(), request());

    expect(result.next).toEqual({ type: 'continue' });
    expect(result.data).toMatchObject({ taskId: 't-3', contextId: 'c-3' });
  });

  it('skips an event that carries nothing', async () => {
    const { step, client } = await opened({
      sendMessageStream: () => thenOpen({ payload: undefined }, events.task(working())),
    });

    const result = await sendStream(step, client, sentRun(), request());

    expect(result.next).toEqual({ type: 'continue' });
    expect(result.data.taskId).toBe('t-1');
  });

  it('ends the stream’s request once the agent has answered', async () => {
    const shop = scriptedA2AAgent(
      { sendMessageStream: () => thenOpen(events.message(Message.fromJSON(said('a-1', 'Here.')))) },
      { streaming: true },
    );
    const signals: AbortSignal[] = [];
    const watched: typeof fetch = async (input, init) => {
      if (init?.method === 'POST' && init.signal) signals.push(init.signal);
      return shop.fetch(input, init);
    };
    const { step } = stepWith(shop.agent, watched, { now: () => T0 });
    const client = await step.connection.client(step.scope);

    const result = await sendStream(step, client, sentRun(), request());

    expect(result.next).toMatchObject({ type: 'done', output: { responseMessage: 'Here.' } });
    expect(signals).toHaveLength(1);
    expect(signals[0]?.aborted).toBe(true);
  });

  it('fails for another try when the stream ends before naming the task', async () => {
    const { step, client } = await opened({ sendMessageStream: () => [] });

    await expect(sendStream(step, client, sentRun(), request())).rejects.toMatchObject({
      name: 'A2AUnavailableError',
      message: 'A2A agent shop: the stream ended before the agent named its task',
    });
  });

  it('fails with the agent’s error when the stream breaks before naming the task', async () => {
    const { step, client } = await opened({
      // biome-ignore lint/correctness/useYield: a stream that fails before its first event
      sendMessageStream: async function* () {
        throw new Error('the shop is closed');
      },
    });

    const failure = await sendStream(step, client, sentRun(), request()).catch((e: unknown) => e);

    expect(String(failure)).toContain('the shop is closed');
  });
});

describe('resubscribe', () => {
  it('reads on past the task to its answer, with artifact chunks appended or replaced', async () => {
    const { shop, step } = await opened({
      resubscribe: () => [
        events.task(working()),
        events.status({ state: 'TASK_STATE_WORKING', message: said('s-1', 'Checking.') }),
        events.artifact({ artifactId: 'a', parts: [{ text: 'A red' }] }),
        events.artifact({ artifactId: 'a', parts: [{ text: 'bike.' }] }, true),
        events.artifact({ artifactId: 'b', parts: [{ text: 'draft' }] }),
        events.artifact({ artifactId: 'b', parts: [{ text: 'A bell.' }] }),
        events.artifact({ artifactId: 'c', parts: [{ text: 'Lights.' }] }, true),
        events.status({ state: 'TASK_STATE_COMPLETED' }),
      ],
    });

    const result = await resubscribe(step, sentRun({ taskId: 't-1', waitingSince: T0 }));

    expect(callsOf(shop.calls, 'resubscribe')).toEqual([
      expect.objectContaining({ tenant: '', id: 't-1' }),
    ]);
    expect(result.next).toEqual({
      type: 'done',
      output: {
        id: 'run-1',
        status: 'completed',
        responseMessage: 'A red\n\nbike.\n\nA bell.\n\nLights.',
        metadata: { context_id: 'c-1', task_id: 't-1' },
      },
    });
    expect(texts(result)).toEqual(['Checking.']);
  });

  it('shows what the agent said before the message that answers', async () => {
    const { step } = await opened({
      resubscribe: () => [
        events.status({ state: 'TASK_STATE_WORKING', message: said('s-1', 'Checking.') }),
        events.message(Message.fromJSON(said('a-1', 'Here.'))),
      ],
    });

    const result = await resubscribe(step, sentRun({ taskId: 't-1', waitingSince: T0 }));

    expect(result.next).toMatchObject({ type: 'done', output: { responseMessage: 'Here.' } });
    expect(texts(result)).toEqual(['Checking.']);
  });

  it('keeps the artifacts of the task it was given and the ids of the run when updates name none', async () => {
    const { step } = await opened({
      resubscribe: () => [
        events.task(
          taskOf({
            status: { state: 'TASK_STATE_WORKING' },
            artifacts: [{ artifactId: 'a', parts: [{ text: 'Two bikes.' }] }],
          }),
        ),
        events.status({ state: 'TASK_STATE_COMPLETED' }, { taskId: '', contextId: '' }),
      ],
    });

    const result = await resubscribe(step, sentRun({ taskId: 't-1', waitingSince: T0 }));

    expect(result.next).toMatchObject({
      type: 'done',
      output: { responseMessage: 'Two bikes.', metadata: { context_id: 'c-1', task_id: 't-1' } },
    });
    expect(result.data).toMatchObject({ taskId: 't-1', contextId: 'c-1' });
  });

  it('takes the ids of a status update that comes before the task', async () => {
    const { step } = await opened({
      resubscribe: () => [
        events.status({ state: 'TASK_STATE_WORKING' }, { taskId: 't-2', contextId: 'c-2' }),
      ],
    });

    const result = await resubscribe(step, sentRun({ taskId: 't-1', waitingSince: T0 }));

    expect(result.data).toMatchObject({ taskId: 't-2', contextId: 'c-2' });
  });

  it('shows a question the stream asks as the answer, not as something said while working', async () => {
    const { step } = await opened({
      resubscribe: () => [
        events.status({ state: 'TASK_STATE_INPUT_REQUIRED', message: said('q-1', 'Which size?') }),
      ],
    });

    const result = await resubscribe(step, sentRun({ taskId: 't-1', waitingSince: T0 }));

    expect(result.next).toMatchObject({
      type: 'done',
      output: { status: 'input_required', responseMessage: 'Which size?' },
    });
    expect(result.messages).toEqual([]);
  });

  it('answers with the task’s ids when a status update that asks comes before the task', async () => {
    const { step } = await opened({
      resubscribe: () => [
        events.status({ state: 'TASK_STATE_INPUT_REQUIRED', message: said('q-1', 'Which size?') }),
      ],
    });

    const result = await resubscribe(step, sentRun({ taskId: 't-1', waitingSince: T0 }));

    expect(result.next).toEqual({
      type: 'done',
      output: {
        id: 'run-1',
        status: 'input_required',
        responseMessage: 'Which size?',
        metadata: { context_id: 'c-1', task_id: 't-1', question_id: 'q-1' },
      },
    });
  });

  it('reads on past a status update that carries no status', async () => {
    const bare = {
      payload: {
        $case: 'statusUpdate',
        value: { taskId: 't-1', contextId: 'c-1', status: undefined, metadata: undefined },
      },
    } as StreamResponse;
    const { step } = await opened({
      resubscribe: () => [bare, events.task(completed('A red bike.'))],
    });

    const result = await resubscribe(step, sentRun({ taskId: 't-1', waitingSince: T0 }));

    expect(result.next).toMatchObject({
      type: 'done',
      output: { status: 'completed', responseMessage: 'A red bike.' },
    });
    expect(result.messages).toEqual([]);
  });

  it('polls when the stream closes while the task works, even after the agent said something', async () => {
    const { step } = await opened({
      resubscribe: () => [
        events.status({ state: 'TASK_STATE_WORKING', message: said('s-1', 'Checking.') }),
      ],
    });

    const result = await resubscribe(step, sentRun({ taskId: 't-1', waitingSince: T0 }));

    expect(result.next).toEqual({ type: 'continue', delayMs: 500 });
    expect(result.data.stream).toBe(false);
    expect(texts(result)).toEqual(['Checking.']);
  });

  it('shows what the agent said once it pauses, and reads on at once', async () => {
    vi.useFakeTimers({ now: T0 });
    const { step } = await opened(
      {
        resubscribe: () =>
          thenOpen(
            events.status({ state: 'TASK_STATE_WORKING', message: said('s-1', 'Checking.') }),
          ),
      },
      {},
      () => Date.now(),
    );

    let result: Awaited<ReturnType<typeof resubscribe>> | undefined;
    void resubscribe(step, sentRun({ taskId: 't-1', waitingSince: T0 })).then((r) => {
      result = r;
    });
    await vi.advanceTimersByTimeAsync(STREAM_FLUSH_MS - 1);
    expect(result).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);

    expect(STREAM_FLUSH_MS).toBe(300);
    expect(result?.next).toEqual({ type: 'continue' });
    expect(result?.data.stream).toBe(true);
    expect(result && texts(result)).toEqual(['Checking.']);
  });

  it('reads a stream that says nothing for 10 s, then polls', async () => {
    vi.useFakeTimers({ now: T0 });
    const { step } = await opened({ resubscribe: () => thenOpen(events.task(working())) }, {}, () =>
      Date.now(),
    );

    let result: Awaited<ReturnType<typeof resubscribe>> | undefined;
    void resubscribe(step, sentRun({ taskId: 't-1', waitingSince: T0 })).then((r) => {
      result = r;
    });
    await vi.advanceTimersByTimeAsync(STREAM_WINDOW_MS - 1);
    expect(result).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);

    expect(STREAM_WINDOW_MS).toBe(10_000);
    expect(result?.next).toEqual({ type: 'continue', delayMs: 500 });
    expect(result?.data.stream).toBe(false);
  });

  it('reads a stream no longer than a request may take', async () => {
    vi.useFakeTimers({ now: T0 });
    const { step } = await opened(
      { resubscribe: () => thenOpen() },
      { configuration: { timeout: 2 } },
      () => Date.now(),
    );

    let result: Awaited<ReturnType<typeof resubscribe>> | undefined;
    void resubscribe(step, sentRun({ taskId: 't-1', waitingSince: T0 })).then((r) => {
      result = r;
    });
    await vi.advanceTimersByTimeAsync(1_999);
    expect(result).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);

    expect(result?.next).toEqual({ type: 'continue', delayMs: 500 });
  });

  it('reads a stream no longer than task_timeout leaves, then gives the task up', async () => {
    vi.useFakeTimers({ now: T0 });
    const { step, cancelled } = await opened(
      { resubscribe: () => thenOpen() },
      { configuration: { task_timeout: 3 } },
      () => Date.now(),
    );

    let result: Awaited<ReturnType<typeof resubscribe>> | undefined;
    void resubscribe(step, sentRun({ taskId: 't-1', waitingSince: T0 + 1_000 })).then((r) => {
      result = r;
    });
    await vi.advanceTimersByTimeAsync(3_999);
    expect(result).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);

    expect(result?.next).toMatchObject({
      type: 'done',
      output: { errorMessage: "the agent's task did not finish within task_timeout (3 s)" },
    });
    expect(cancelled).toHaveLength(1);
  });

  it('fetches the task a last time, uncounted, once its time is up', async () => {
    const { shop, step, cancelled } = await opened(
      { getTask: () => working() },
      { configuration: { task_timeout: 10 } },
    );

    const result = await resubscribe(
      step,
      sentRun({ taskId: 't-1', waitingSince: T0 - 10_000, polls: 4, stream: true }),
    );

    expect(callsOf(shop.calls, 'resubscribe')).toEqual([]);
    expect(callsOf(shop.calls, 'getTask')).toEqual([expect.objectContaining({ id: 't-1' })]);
    expect(result.data).toMatchObject({ polls: 4, stream: false });
    expect(result.next).toMatchObject({
      type: 'done',
      output: { errorMessage: "the agent's task did not finish within task_timeout (10 s)" },
    });
    expect(cancelled).toHaveLength(1);
  });

  it('stops reading the stream once its time is up, whatever the last fetch finds', async () => {
    const { step } = await opened(
      { getTask: () => completed('Done.') },
      { configuration: { task_timeout: 10 } },
    );

    const result = await resubscribe(
      step,
      sentRun({ taskId: 't-1', waitingSince: T0 - 10_000, stream: true }),
    );

    expect(result.next).toMatchObject({ type: 'done', output: { responseMessage: 'Done.' } });
    expect(result.data.stream).toBe(false);
  });

  it('names no made-up task when the run holds no task id', async () => {
    const { shop, step } = await opened({ resubscribe: () => [events.task(completed('Done.'))] });

    // A run continuing a task that the agent described without its id has none.
    await resubscribe(step, sentRun({ waitingSince: T0 }));

    expect(callsOf(shop.calls, 'resubscribe')).toEqual([expect.objectContaining({ id: '' })]);
  });

  it('fetches the task instead when the agent refuses the subscription, and polls on', async () => {
    const { shop, step } = await opened({
      resubscribe: () => {
        throw new Error('the task has ended');
      },
      getTask: () => completed('Done.'),
    });

    const result = await resubscribe(
      step,
      sentRun({ taskId: 't-1', waitingSince: T0, polls: 2, stream: true }),
    );

    expect(callsOf(shop.calls, 'getTask')).toHaveLength(1);
    expect(result.next).toMatchObject({ type: 'done', output: { responseMessage: 'Done.' } });
    expect(result.data).toMatchObject({ polls: 2, stream: false });
  });

  it('fails for another try when the agent is out of reach', async () => {
    const shop = scriptedA2AAgent({ getTask: () => completed('Done.') }, { streaming: true });
    const busy: typeof fetch = async (input, init) =>
      init?.method === 'POST' ? new Response('busy', { status: 503 }) : shop.fetch(input, init);
    const { step } = stepWith(shop.agent, busy, { now: () => T0 });

    await expect(
      resubscribe(step, sentRun({ taskId: 't-1', waitingSince: T0 })),
    ).rejects.toMatchObject({
      name: 'A2AUnavailableError',
      message: 'A2A agent shop: the agent answered HTTP 503',
    });
  });

  it('stops with the job’s own error when the job runs out of time, not as the agent’s failure', async () => {
    const job = new AbortController();
    const shop = scriptedA2AAgent(
      {
        resubscribe: async function* () {
          yield events.status({ state: 'TASK_STATE_WORKING', message: said('s-1', 'Checking.') });
          job.abort(new JobDeadlineError(60_000));
          await new Promise(() => {});
        },
      },
      { streaming: true },
    );
    const { step } = stepWith(shop.agent, shop.fetch, { now: () => T0, signal: job.signal });

    await expect(
      resubscribe(step, sentRun({ taskId: 't-1', waitingSince: T0 })),
    ).rejects.toMatchObject({
      name: 'JobDeadlineError',
      message: 'the job ran out of its 60000 ms budget',
    });
  });

  it('stops with the job’s reason when the job is cancelled after the whole stream has arrived', async () => {
    const job = new AbortController();
    const shop = scriptedA2AAgent(
      {
        resubscribe: () => [
          events.status({ state: 'TASK_STATE_WORKING', message: said('s-1', 'Checking.') }),
        ],
      },
      { streaming: true },
    );
    // The stream is read to its end before the reader takes it up; the job is cancelled meanwhile.
    const arrived: typeof fetch = async (input, init) => {
      const response = await shop.fetch(input, init);
      if (!response.headers.get('content-type')?.includes('text/event-stream')) return response;
      const body = await response.text();
      job.abort(new Error('the job was cancelled'));
      return new Response(body, { headers: response.headers });
    };
    const { step } = stepWith(shop.agent, arrived, { now: () => T0, signal: job.signal });

    await expect(resubscribe(step, sentRun({ taskId: 't-1', waitingSince: T0 }))).rejects.toThrow(
      'the job was cancelled',
    );
  });

  it('stops when the job is cancelled, with the job’s reason', async () => {
    const job = new AbortController();
    const shop = scriptedA2AAgent(
      {
        resubscribe: async function* () {
          yield events.status({ state: 'TASK_STATE_WORKING', message: said('s-1', 'Checking.') });
          job.abort(new Error('the job was cancelled'));
          await new Promise(() => {});
        },
      },
      { streaming: true },
    );
    const { step } = stepWith(shop.agent, shop.fetch, { now: () => T0, signal: job.signal });

    await expect(resubscribe(step, sentRun({ taskId: 't-1', waitingSince: T0 }))).rejects.toThrow(
      'the job was cancelled',
    );
  });
});
