import { describe, expect, it } from 'vitest';
import {
  finish,
  MAX_POLL_DELAY_MS,
  onTask,
  stillAsking,
  timeLeftMs,
  waitFor,
} from '../../../src/a2a/outcomes.js';
import { scriptedA2AAgent, sentRun, stepWith, taskOf } from './scriptedA2AAgent.js';

const T0 = 1_000_000;

/** A step at `now`, of an agent that polls from 0.5 s for 60 s, within a task_timeout of 600 s. */
function stepAt(now: number, configuration: Parameters<typeof scriptedA2AAgent>[1] = {}) {
  const shop = scriptedA2AAgent({}, configuration);
  return stepWith(shop.agent, shop.fetch, { now: () => now });
}

const progress = { text: 'Still looking.', metadata: { intermediate: true, agent_id: 'shop' } };

describe('waitFor', () => {
  it('starts the wait now and polls first after polling_initial_delay', async () => {
    const { step } = stepAt(T0);

    const result = await waitFor(step, sentRun(), [progress]);

    expect(result).toEqual({
      data: sentRun({ waitingSince: T0, stream: false }),
      messages: [progress],
      next: { type: 'continue', delayMs: 500 },
    });
  });

  it('doubles the delay with each poll, up to 30 s', async () => {
    const long = { configuration: { max_polling_time: 3600, task_timeout: 7200 } };
    const delayAfter = async (polls: number) =>
      (await waitFor(stepAt(T0, long).step, sentRun({ polls, waitingSince: T0 }), [])).next;

    expect(await delayAfter(1)).toEqual({ type: 'continue', delayMs: 1000 });
    expect(await delayAfter(2)).toEqual({ type: 'continue', delayMs: 2000 });
    expect(await delayAfter(10)).toEqual({ type: 'continue', delayMs: MAX_POLL_DELAY_MS });
    expect(MAX_POLL_DELAY_MS).toBe(30_000);
  });

  it('polls last when max_polling_time is over, and no later than task_timeout', async () => {
    const polling = await waitFor(
      stepAt(T0 + 59_800).step,
      sentRun({ polls: 3, waitingSince: T0 }),
      [],
    );
    expect(polling.next).toEqual({ type: 'continue', delayMs: 200 });

    const timing = await waitFor(
      stepAt(T0 + 9_700, { configuration: { task_timeout: 10 } }).step,
      sentRun({ polls: 3, waitingSince: T0 }),
      [],
    );
    expect(timing.next).toEqual({ type: 'continue', delayMs: 300 });
  });

  it('waits at least a millisecond', async () => {
    const { step } = stepAt(T0 + 59_999.5);

    const result = await waitFor(step, sentRun({ waitingSince: T0 }), []);

    expect(result.next).toEqual({ type: 'continue', delayMs: 1 });
  });

  it('gives up once max_polling_time has passed: the task is cancelled and the run fails', async () => {
    const { step, cancelled } = stepAt(T0 + 60_000);
    const data = sentRun({ waitingSince: T0, taskId: 't-1', polls: 7 });

    const result = await waitFor(step, data, [progress]);

    const run = { ...data, stream: false };
    expect(result).toEqual({
      data: run,
      messages: [progress],
      next: {
        type: 'done',
        output: {
          id: 'msg-1',
          status: 'fatal_error',
          errorMessage: "the agent's task did not finish within max_polling_time (60 s)",
        },
      },
    });
    expect(cancelled).toEqual([run]);
  });

  it('gives up at task_timeout even while it reads a stream or waits for a push', async () => {
    for (const [data, stream] of [
      [sentRun({ waitingSince: T0, taskId: 't-1' }), true],
      [sentRun({ waitingSince: T0, taskId: 't-1', push: true }), false],
    ] as const) {
      const { step, cancelled } = stepAt(T0 + 600_000);

      const result = await waitFor(step, data, [], stream);

      expect(result.next).toEqual({
        type: 'done',
        output: {
          id: 'msg-1',
          status: 'fatal_error',
          errorMessage: "the agent's task did not finish within task_timeout (600 s)",
        },
      });
      expect(cancelled).toHaveLength(1);
    }
  });

  it('reads the stream again at once, past max_polling_time, until task_timeout', async () => {
    const { step, cancelled } = stepAt(T0 + 599_999);

    const result = await waitFor(step, sentRun({ waitingSince: T0 }), [progress], true);

    expect(result).toEqual({
      data: sentRun({ waitingSince: T0, stream: true }),
      messages: [progress],
      next: { type: 'continue' },
    });
    expect(cancelled).toEqual([]);
  });

  it('waits for a push past max_polling_time, polling once per max_polling_time within task_timeout', async () => {
    const late = await waitFor(
      stepAt(T0 + 120_000).step,
      sentRun({ waitingSince: T0, push: true }),
      [],
    );
    expect(late.next).toEqual({ type: 'continue', delayMs: 60_000 });
    expect(late.data.push).toBe(true);

    const nearTimeout = await waitFor(
      stepAt(T0 + 590_000).step,
      sentRun({ waitingSince: T0, push: true }),
      [],
    );
    expect(nearTimeout.next).toEqual({ type: 'continue', delayMs: 10_000 });
  });
});

describe('timeLeftMs', () => {
  it('counts task_timeout from when the run began to wait, or from now before it did', () => {
    const { step } = stepAt(T0 + 1_000);

    expect(timeLeftMs(step, sentRun({ waitingSince: T0 }))).toBe(599_000);
    expect(timeLeftMs(step, sentRun())).toBe(600_000);
  });
});

describe('onTask', () => {
  it('ends the run with the answer through processOutput, after what the agent said first', async () => {
    const shop = scriptedA2AAgent({});
    const { step } = stepWith(shop.agent, shop.fetch, {
      now: () => T0,
      processOutput: async (output) => ({
        ...output,
        responseMessage: `[${output.responseMessage}]`,
      }),
    });
    const task = taskOf({
      status: { state: 'TASK_STATE_COMPLETED' },
      artifacts: [{ artifactId: 'a', parts: [{ text: 'A red bike.' }] }],
      history: [
        { messageId: 'msg-1', role: 'ROLE_USER', parts: [{ text: 'Find me a bike' }] },
        { messageId: 's-1', role: 'ROLE_AGENT', parts: [{ text: 'Looking.' }] },
      ],
    });

    const result = await onTask(step, sentRun({ waitingSince: T0 }), task, [progress]);

    expect(result.next).toEqual({
      type: 'done',
      output: {
        id: 'run-1',
        status: 'completed',
        responseMessage: '[A red bike.]',
        metadata: { context_id: 'c-1', task_id: 't-1' },
      },
    });
    expect((result.messages ?? []).map((m) => m.text)).toEqual(['Still looking.', 'Looking.']);
    expect(result.data.shown).toEqual(['s-1']);
  });

  it('waits on a task that works, showing its status message once', async () => {
    const { step } = stepAt(T0);
    const task = taskOf({
      status: {
        state: 'TASK_STATE_WORKING',
        message: { messageId: 's-2', role: 'ROLE_AGENT', parts: [{ text: 'Comparing.' }] },
      },
    });

    const result = await onTask(step, sentRun(), task);

    expect(result.next).toEqual({ type: 'continue', delayMs: 500 });
    expect((result.messages ?? []).map((m) => m.text)).toEqual(['Comparing.']);
    expect(result.data).toMatchObject({ shown: ['s-2'], waitingSince: T0 });
  });

  it('waits on the first answer to a continuing message while it shows a question', async () => {
    const { step } = stepAt(T0);
    const task = taskOf({
      status: {
        state: 'TASK_STATE_INPUT_REQUIRED',
        message: { messageId: 'q-0', role: 'ROLE_AGENT', parts: [{ text: 'Which size?' }] },
      },
    });

    expect((await onTask(step, sentRun(), task, [], true)).next.type).toBe('continue');
    expect((await onTask(step, sentRun(), task)).next).toMatchObject({
      type: 'done',
      output: { status: 'input_required', responseMessage: 'Which size?' },
    });
  });

  it('waits on a task that shows no status yet, whether the message continues it or answers its question', async () => {
    const { step } = stepAt(T0);
    const task = taskOf({});
    expect(task.status).toBeUndefined();

    const continuing = await onTask(step, sentRun(), task, [], true);
    const answering = await onTask(step, sentRun({ asked: 'q-0' }), task);

    for (const result of [continuing, answering]) {
      expect(result.next).toEqual({ type: 'continue', delayMs: 500 });
      expect(result.messages).toEqual([]);
    }
  });
});

describe('finish', () => {
  it('shows nothing before the answer when it is given nothing said', async () => {
    const { step } = stepAt(T0);
    const output = { id: 'run-1', status: 'completed' as const, responseMessage: 'Here.' };

    const result = await finish(step, sentRun(), output);

    expect(result).toEqual({ data: sentRun(), messages: [], next: { type: 'done', output } });
  });
});

describe('stillAsking', () => {
  const asking = (status: Record<string, unknown>) => taskOf({ status }).status;

  it('holds only for the very question the message answers, shown again', () => {
    const question = {
      state: 'TASK_STATE_INPUT_REQUIRED',
      message: { messageId: 'q-0', role: 'ROLE_AGENT', parts: [{ text: 'Which size?' }] },
    };

    expect(stillAsking(sentRun({ asked: 'q-0' }), asking(question))).toBe(true);
    expect(stillAsking(sentRun({ asked: 'q-1' }), asking(question))).toBe(false);
    expect(
      stillAsking(sentRun({ asked: 'q-0' }), asking({ ...question, state: 'TASK_STATE_WORKING' })),
    ).toBe(false);
  });

  it('does not hold for a run that answers no question, even of a status with no id or time', () => {
    expect(stillAsking(sentRun(), asking({ state: 'TASK_STATE_INPUT_REQUIRED' }))).toBe(false);
  });

  it('keeps a run waiting while its task shows the question the message answers', async () => {
    const { step } = stepAt(T0);
    const task = taskOf({
      status: {
        state: 'TASK_STATE_INPUT_REQUIRED',
        message: { messageId: 'q-0', role: 'ROLE_AGENT', parts: [{ text: 'Which size?' }] },
      },
    });

    const result = await onTask(step, sentRun({ asked: 'q-0', shown: ['q-0'] }), task);

    expect(result.next).toEqual({ type: 'continue', delayMs: 500 });
    expect(result.messages).toEqual([]);
  });
});
