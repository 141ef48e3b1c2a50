import { StreamResponse, Task, TaskState } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { describe, expect, it } from 'vitest';
import { A2AAgent } from '../../../src/a2a/agent.js';
import type { A2AConnection } from '../../../src/a2a/connection.js';
import { followUp } from '../../../src/a2a/followUp.js';
import type { A2ARunData } from '../../../src/a2a/runData.js';
import type { A2AStep } from '../../../src/a2a/step.js';
import type { A2ASubAgent } from '../../../src/assistant/index.js';

const NOW = 1_000_000;

const agent: A2ASubAgent = {
  name: 'shop',
  description: 'Sells cars.',
  dir: 'sub_agents/shop',
  protocol: 'A2A',
  agentCard: { kind: 'file', file: 'card.json', card: {} },
  configuration: {
    agent_card: 'card.json',
    max_polling_time: 60,
    polling_initial_delay: 0.5,
    task_timeout: 600,
    max_retries: 0,
  },
};

const run = (extra: Partial<A2ARunData> = {}): A2ARunData => ({
  agentId: 'shop',
  messageId: 'ours',
  taskId: 't-1',
  polls: 2,
  push: true,
  shown: [],
  waitingSince: NOW,
  ...extra,
});

const task = (state: string, text?: string) =>
  Task.fromJSON({
    id: 't-1',
    contextId: 'c-1',
    status: {
      state,
      ...(text ? { message: { messageId: 'm-end', role: 'ROLE_AGENT', parts: [{ text }] } } : {}),
    },
  });

/** A step whose agent answers `GetTask` with `current` and a resubscription with `streamed`. */
function stepWith(
  update: unknown,
  current: Task = task('TASK_STATE_WORKING'),
  streamed: Task = task('TASK_STATE_COMPLETED', 'From the stream.'),
) {
  const calls: string[] = [];
  const client = {
    getTask: async (params: { id: string }) => {
      calls.push(`GetTask ${params.id}`);
      return current;
    },
    resubscribeTask: async function* (params: { id: string }) {
      calls.push(`SubscribeToTask ${params.id}`);
      yield StreamResponse.fromJSON({ task: Task.toJSON(streamed) });
    },
  } as unknown as Client;
  const connection = {
    client: async () => client,
    requestOptions: async () => ({}),
    timeoutMs: () => 30_000,
  } as unknown as A2AConnection;
  const cancelled: string[] = [];
  const step: A2AStep = {
    agent,
    connection,
    context: {
      conversationId: 'alice',
      runId: 'run-1',
      signal: new AbortController().signal,
      ...(update !== undefined ? { update } : {}),
    },
    scope: { signal: new AbortController().signal },
    custom: () => new A2AAgent(agent),
    now: () => NOW + 5_000,
    cancelTask: async (data) => {
      cancelled.push(data.taskId ?? '');
    },
  };
  return { step, calls, cancelled };
}

describe('followUp', () => {
  it('fails a run that has no task to wait for, asking the agent nothing', async () => {
    const { step, calls } = stepWith(undefined);
    const result = await followUp(step, run({ taskId: undefined }));
    expect(result.next).toEqual({
      type: 'done',
      output: {
        id: 'ours',
        status: 'fatal_error',
        errorMessage: 'the run has no task to wait for',
      },
    });
    expect(calls).toEqual([]);
  });

  it('ignores a notification about another task, waiting on as before', async () => {
    const { step, calls } = stepWith({ task_id: 't-other', state: TaskState.TASK_STATE_COMPLETED });
    const result = await followUp(step, run());
    expect(calls).toEqual([]);
    expect(result.messages).toEqual([]);
    expect(result.data).toMatchObject({ polls: 2, stream: false });
    // A run with push waits for the next notification, polling now and then.
    expect(result.next).toEqual({ type: 'continue', delayMs: 60_000 });
  });

  it('keeps reading the stream after a stray notification when the run reads one', async () => {
    const { step, calls } = stepWith({ task_id: 't-other' });
    const result = await followUp(step, run({ stream: true }));
    expect(calls).toEqual([]);
    expect(result.data.stream).toBe(true);
    expect(result.next).toEqual({ type: 'continue' });
  });

  it('shows what a working task says in a notification at once, without fetching the task', async () => {
    const { step, calls } = stepWith({
      task_id: 't-1',
      state: TaskState.TASK_STATE_WORKING,
      message: { id: 's-1', text: 'Checking the stock…' },
    });
    const result = await followUp(step, run());
    expect(calls).toEqual([]);
    expect(result.messages).toEqual([
      { text: 'Checking the stock…', metadata: { intermediate: true, agent_id: 'shop' } },
    ]);
    expect(result.data.shown).toEqual(['s-1']);
    expect(result.next).toMatchObject({ type: 'continue' });
  });

  it('waits on quietly after a working notification with nothing said', async () => {
    const { step, calls } = stepWith({ task_id: 't-1', state: TaskState.TASK_STATE_WORKING });
    const result = await followUp(step, run());
    expect(calls).toEqual([]);
    expect(result.messages).toEqual([]);
    expect(result.next).toMatchObject({ type: 'continue' });
  });

  it('reads the stream on at once after a working notification when the run reads one', async () => {
    const { step, calls } = stepWith({ task_id: 't-1', state: TaskState.TASK_STATE_WORKING });
    const result = await followUp(step, run({ stream: true }));
    expect(calls).toEqual([]);
    expect(result.data.stream).toBe(true);
    expect(result.next).toEqual({ type: 'continue' });
  });

  it('takes the question the message answers, notified again, as no news', async () => {
    const { step, calls } = stepWith({
      task_id: 't-1',
      state: TaskState.TASK_STATE_INPUT_REQUIRED,
      message: { id: 'q-1', text: 'Which trim?' },
    });
    const result = await followUp(step, run({ asked: 'q-1' }));
    expect(calls).toEqual([]);
    expect(result.messages).toEqual([]);
    expect(result.next).toMatchObject({ type: 'continue' });
  });

  it('fetches the task after a notification of a new question, without counting a poll', async () => {
    const { step, calls } = stepWith(
      {
        task_id: 't-1',
        state: TaskState.TASK_STATE_INPUT_REQUIRED,
        message: { id: 'q-2', text: 'Which colour?' },
      },
      task('TASK_STATE_INPUT_REQUIRED', 'Which colour?'),
    );
    const result = await followUp(step, run({ asked: 'q-1' }));
    expect(calls).toEqual(['GetTask t-1']);
    expect(result.next).toMatchObject({
      type: 'done',
      output: { status: 'input_required', responseMessage: 'Which colour?' },
    });
  });

  it('fetches the task after a notification of a question without words', async () => {
    for (const asked of ['q-1', undefined]) {
      const { step, calls } = stepWith(
        { task_id: 't-1', state: TaskState.TASK_STATE_INPUT_REQUIRED },
        task('TASK_STATE_INPUT_REQUIRED', 'Which colour?'),
      );
      const result = await followUp(step, run(asked ? { asked } : {}));
      expect(calls, `asked ${asked}`).toEqual(['GetTask t-1']);
      expect(result.next).toMatchObject({
        type: 'done',
        output: { status: 'input_required', responseMessage: 'Which colour?' },
      });
    }
  });

  it('fetches the task after a notification that it ended, leaving the backoff where it was', async () => {
    const { step, calls } = stepWith(
      { task_id: 't-1', state: TaskState.TASK_STATE_COMPLETED },
      task('TASK_STATE_WORKING'),
    );
    const result = await followUp(step, run({ push: false }));
    expect(calls).toEqual(['GetTask t-1']);
    expect(result.data.polls).toBe(2);
  });

  it('fetches the task after a notification without a state', async () => {
    const { step, calls } = stepWith({ task_id: 't-1' }, task('TASK_STATE_COMPLETED', 'Done.'));
    const result = await followUp(step, run());
    expect(calls).toEqual(['GetTask t-1']);
    expect(result.next).toMatchObject({
      type: 'done',
      output: { status: 'completed', responseMessage: 'Done.' },
    });
  });

  it('polls, counting the poll, when the step was not started by a notification', async () => {
    const { step, calls } = stepWith(undefined);
    const result = await followUp(step, run({ push: false }));
    expect(calls).toEqual(['GetTask t-1']);
    expect(result.data.polls).toBe(3);
    expect(result.next).toMatchObject({ type: 'continue' });
  });

  it('polls when what started the step is not a notification', async () => {
    const { step, calls } = stepWith({ something: 'else' });
    const result = await followUp(step, run({ push: false }));
    expect(calls).toEqual(['GetTask t-1']);
    expect(result.data.polls).toBe(3);
  });

  it('reads the task’s stream again when the run reads one', async () => {
    const { step, calls } = stepWith(undefined);
    const result = await followUp(step, run({ stream: true }));
    expect(calls).toEqual(['SubscribeToTask t-1']);
    expect(result.next).toMatchObject({
      type: 'done',
      output: { status: 'completed', responseMessage: 'From the stream.' },
    });
  });
});
