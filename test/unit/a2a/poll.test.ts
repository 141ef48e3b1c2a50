import { describe, expect, it } from 'vitest';
import { poll } from '../../../src/a2a/poll.js';
import { callsOf, scriptedA2AAgent, sentRun, stepWith, taskOf } from './scriptedA2AAgent.js';

const T0 = 1_000_000;

const working = taskOf({
  status: {
    state: 'TASK_STATE_WORKING',
    message: { messageId: 's-1', role: 'ROLE_AGENT', parts: [{ text: 'Comparing.' }] },
  },
});

describe('poll', () => {
  it('fetches the run’s task and waits longer after each counted poll', async () => {
    const shop = scriptedA2AAgent({ getTask: () => working });
    const { step } = stepWith(shop.agent, shop.fetch, { now: () => T0 });

    const result = await poll(step, sentRun({ taskId: 't-1', waitingSince: T0, polls: 1 }), true);

    expect(callsOf(shop.calls, 'getTask')).toEqual([
      expect.objectContaining({ tenant: '', id: 't-1' }),
    ]);
    expect(result.data.polls).toBe(2);
    expect(result.data.states).toEqual([{ state: 'working', at: T0 }]);
    expect(result.next).toEqual({ type: 'continue', delayMs: 2000 });
    expect((result.messages ?? []).map((m) => m.text)).toEqual(['Comparing.']);
  });

  it('does not move the backoff on for a check after a push', async () => {
    const shop = scriptedA2AAgent({ getTask: () => working });
    const { step } = stepWith(shop.agent, shop.fetch, { now: () => T0 });

    const result = await poll(step, sentRun({ taskId: 't-1', waitingSince: T0, polls: 1 }), false);

    expect(result.data.polls).toBe(1);
    expect(result.next).toEqual({ type: 'continue', delayMs: 1000 });
  });

  it('ends the run with the answer the task holds', async () => {
    const shop = scriptedA2AAgent({
      getTask: () =>
        taskOf({
          status: { state: 'TASK_STATE_FAILED' },
        }),
    });
    const { step } = stepWith(shop.agent, shop.fetch, { now: () => T0 });

    const result = await poll(
      step,
      sentRun({ taskId: 't-1', waitingSince: T0, states: [{ state: 'working', at: T0 - 5 }] }),
      true,
    );

    expect(result.data.states).toEqual([
      { state: 'working', at: T0 - 5 },
      { state: 'failed', at: T0 },
    ]);
    expect(result.next).toEqual({
      type: 'done',
      output: {
        id: 'run-1',
        status: 'fatal_error',
        errorMessage: "the agent's task ended failed",
        metadata: { context_id: 'c-1', task_id: 't-1' },
      },
    });
  });

  it('names no made-up task when the run holds no task id', async () => {
    const shop = scriptedA2AAgent({ getTask: () => working });
    const { step } = stepWith(shop.agent, shop.fetch, { now: () => T0 });

    // A run continuing a task that the agent described without its id has none.
    await poll(step, sentRun({ waitingSince: T0 }), true);

    expect(callsOf(shop.calls, 'getTask')).toEqual([expect.objectContaining({ id: '' })]);
  });
});
