import { describe, expect, it } from 'vitest';
import { StepJournal, stepActions } from '../../../src/local/inspect/journal.js';
import { withSteps } from '../../../src/local/inspect/queries.js';
import type { StepReport } from '../../../src/runtime/index.js';

const asked = (names: string[]) => ({
  role: 'assistant',
  content: '',
  toolCalls: names.map((name, i) => ({ id: `c${i}`, name, arguments: '{}' })),
});
const result = (name: string, isError = false) => ({ callId: 'c0', toolName: name, isError });

/** A ReAct run's data after `answers` model calls. */
const react = (messages: unknown[], extra: Record<string, unknown> = {}) => ({
  messages,
  modelCalls: messages.filter((m) => (m as { role: string }).role === 'assistant').length,
  results: [],
  ...extra,
});

const report = (over: Partial<StepReport>): StepReport => ({
  conversationId: 'c-1',
  runId: 'r-1',
  agentId: 'researcher',
  jobId: 'r-1#0',
  step: 0,
  startedAt: 1_000,
  durationMs: 40,
  outcome: 'continued',
  before: react([]),
  runner: react([]),
  ...over,
});

describe('StepJournal', () => {
  it('keeps each step of a run with its time and what it did, numbered by iteration', () => {
    const journal = new StepJournal();
    const first = react([asked(['search_cars'])], { pending: [{ id: 'c0', name: 'search_cars' }] });
    const second = react(
      [asked(['search_cars']), { role: 'tool', toolCallId: 'c0', content: '[]' }],
      {
        results: [result('search_cars')],
      },
    );
    journal.record(report({ step: 0, before: react([]), runner: first }));
    journal.record(
      report({ step: 1, before: first, runner: second, startedAt: 1_100, durationMs: 7 }),
    );
    journal.record(
      report({
        step: 2,
        before: second,
        runner: second,
        outcome: 'retrying',
        reason: 'model 503',
        retryInMs: 1000,
      }),
    );
    journal.record(
      report({
        step: 3,
        before: second,
        runner: react([...second.messages, { role: 'assistant', content: 'Two cars.' }]),
        outcome: 'done',
        output: { id: 'r-1', status: 'input_required', responseMessage: 'Two cars.' },
      }),
    );
    const run = journal.runs('c-1').get('r-1');
    expect(run?.agentId).toBe('researcher');
    expect(run?.steps.map((s) => [s.step, s.iteration, s.outcome, s.did])).toEqual([
      [0, 1, 'continued', ['model asked for search_cars']],
      [1, 1, 'continued', ['ran search_cars']],
      [2, 2, 'retrying', []],
      [3, 2, 'done', ['model answered']],
    ]);
    expect(run?.steps[2]).toMatchObject({ reason: 'model 503', retryInMs: 1000 });
    expect(run?.steps[3]?.output?.responseMessage).toBe('Two cars.');
    // The data after the last step: the one no record holds.
    expect(run?.step).toBe(3);
    expect((run?.runner as { messages?: unknown[] } | undefined)?.messages).toHaveLength(3);
  });

  it('keeps a step told twice once, and an older step does not replace the newest data', () => {
    const journal = new StepJournal();
    journal.record(report({ step: 1, runner: react([asked(['a'])]) }));
    journal.record(report({ step: 0, runner: react([]) }));
    journal.record(report({ step: 1, runner: react([asked(['a'])]), durationMs: 99 }));
    const run = journal.runs('c-1').get('r-1');
    expect(run?.steps.map((s) => [s.step, s.durationMs])).toEqual([
      [0, 40],
      [1, 99],
    ]);
    expect(run?.step).toBe(1);
    expect((run?.runner as { messages?: unknown[] } | undefined)?.messages).toHaveLength(1);
  });

  it('forgets the conversations, runs and steps told of longest ago beyond its limits', () => {
    const journal = new StepJournal({ conversations: 2, runsPerConversation: 2, stepsPerRun: 3 });
    for (const id of ['a', 'b', 'c']) journal.record(report({ conversationId: id }));
    expect(journal.runs('a').size).toBe(0);
    expect(journal.runs('c').size).toBe(1);
    for (const runId of ['r-1', 'r-2', 'r-3'])
      journal.record(report({ conversationId: 'c', runId }));
    expect([...journal.runs('c').keys()]).toEqual(['r-2', 'r-3']);
    for (let step = 0; step < 5; step++)
      journal.record(report({ conversationId: 'c', runId: 'r-3', step }));
    expect(
      journal
        .runs('c')
        .get('r-3')
        ?.steps.map((s) => s.step),
    ).toEqual([2, 3, 4]);
  });
});

describe('withSteps', () => {
  const record = (data: Record<string, unknown>) => ({
    runId: 'r-1',
    jobId: 'j',
    agentId: 'a',
    data,
  });

  it("takes the journal's data of a later step, and its failures in a row: none once a step went well", () => {
    const journal = new StepJournal();
    journal.record(report({ step: 0, outcome: 'retrying', reason: 'busy', retryInMs: 5 }));
    journal.record(report({ step: 1, outcome: 'done', runner: react([asked(['x'])]) }));
    const run = journal.runs('c-1').get('r-1');
    // The record the retry wrote: one failure, one step.
    const view = withSteps(record({ steps: 1, failures: 1, runner: react([]) }), run, false);
    expect(view.data).toMatchObject({ steps: 2, failures: 0 });
    expect(view.steps).toHaveLength(2);
  });

  it('counts the failed steps at the end, and keeps a record newer than what the journal saw', () => {
    const journal = new StepJournal();
    journal.record(report({ step: 0 }));
    journal.record(report({ step: 1, outcome: 'retrying', reason: 'busy' }));
    journal.record(report({ step: 2, outcome: 'failed', reason: 'busy' }));
    const run = journal.runs('c-1').get('r-1');
    expect(withSteps(record({ steps: 2, failures: 1 }), run, false).data).toMatchObject({
      failures: 2,
    });
    const newer = record({ steps: 5, failures: 0, runner: { mark: 'stored' } });
    expect(withSteps(newer, run, true).data).toEqual(newer.data);
  });
});

describe('stepActions', () => {
  it("reads an A2A step's message, task states and polls", () => {
    const before = { messageId: 'm', polls: 0, push: false, shown: [] };
    expect(
      stepActions(before, {
        ...before,
        taskId: 't-1',
        states: [
          { state: 'submitted', at: 1 },
          { state: 'working', at: 2 },
        ],
      }),
    ).toEqual(['sent the message', 'task submitted → working']);
    const working = { ...before, taskId: 't-1', states: [{ state: 'working', at: 2 }], polls: 1 };
    expect(
      stepActions(working, {
        ...working,
        polls: 3,
        states: [...working.states, { state: 'completed', at: 9 }],
      }),
    ).toEqual(['task completed', 'polled the task 2 times']);
  });

  it('reads new task states by their time, once the run keeps only the newest twenty', () => {
    const full = Array.from({ length: 20 }, (_, i) => ({
      state: i % 2 ? 'working' : 'input-required',
      at: i,
    }));
    const before = { messageId: 'm', taskId: 't', polls: 0, states: full };
    const after = { ...before, states: [...full.slice(1), { state: 'completed', at: 20 }] };
    expect(stepActions(before, after)).toEqual(['task completed']);
  });

  it('marks a tool that answered with an error, and says nothing of data it does not know', () => {
    const before = react([asked(['book'])], { pending: [{ id: 'c0', name: 'book' }] });
    expect(stepActions(before, { ...before, results: [result('book', true)] })).toEqual([
      'ran book (error)',
    ]);
    expect(stepActions(undefined, { remaining: 2 })).toEqual([]);
  });
});
