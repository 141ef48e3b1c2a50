import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { conversationKey, runKey } from '../../../src/adapters/aws/dynamoKeys.js';
import { readTracker } from '../../../src/channels/tracker.js';
import {
  type AgentRunner,
  type ConversationStore,
  type Job,
  processJob,
  type ReplyBatch,
  RunState,
  type StepContext,
  type StepResult,
} from '../../../src/runtime/index.js';
import {
  internalErrorReasons,
  NEVER,
  runtimeSuite,
  storeWith,
  type TestRuntime,
  type testRuntime,
  userMessage,
} from '../../helpers/runtime.js';

const FILES = {
  'endpoints.yml': 'mcp_servers:\n  - name: tools\n    url: http://127.0.0.1:9000/mcp\n',
  'domain.yml':
    'slots:\n  finding:\n    type: text\nresponses:\n  utter_found:\n    - text: Noted {finding}.\n',
  'data/flows.yml': `flows:
  research:
    description: Research something.
    steps:
      - call: researcher
      - action: utter_found
`,
  'sub_agents/researcher/config.yml':
    'agent:\n  name: researcher\n  description: Researches.\nconnections:\n  mcp_servers:\n    - name: tools\n',
};

const CountingData = z.object({ remaining: z.number(), failuresLeft: z.number() });
type CountingData = z.infer<typeof CountingData>;

/** A runner that works for a few steps (one of them delayed), then completes. */
function countingRunner(
  steps: number,
  failures = 0,
  alwaysFail = false,
): AgentRunner<CountingData> & { calls: number } {
  const runner = {
    calls: 0,
    dataSchema: CountingData,
    start: (): CountingData => ({ remaining: steps, failuresLeft: failures }),
    step: async (data: CountingData): Promise<StepResult<CountingData>> => {
      runner.calls += 1;
      if (alwaysFail || data.failuresLeft > 0) throw new Error('tool server unreachable');
      if (data.remaining > 1) {
        return {
          data: { ...data, remaining: data.remaining - 1 },
          messages: [{ text: `working (${data.remaining - 1} left)` }],
          next: { type: 'continue', ...(data.remaining === 2 ? { delayMs: 5 } : {}) },
        };
      }
      return {
        data,
        next: {
          type: 'done',
          output: {
            id: 'run',
            status: 'completed',
            responseMessage: 'Research done.',
            events: [{ event: 'slot', name: 'finding', value: 'EVs are cheaper to run' }],
          },
        },
      };
    },
  };
  return runner;
}

/** The step job the last commit queued for a conversation (read back from its queue). */
function pendingStep(rt: TestRuntime, conversation: string, queueUrl?: string): Promise<Job> {
  return rt.takeStep(conversation, queueUrl);
}

const suite = runtimeSuite(FILES);

/** A runner whose every step sends a long message, then finishes after `steps` steps. */
function chattyRunner(steps: number, chars: number): AgentRunner<{ left: number }> {
  return {
    dataSchema: z.object({ left: z.number() }),
    start: () => ({ left: steps }),
    step: async ({ left }) => {
      const text = 'x'.repeat(chars);
      if (left > 1)
        return { data: { left: left - 1 }, messages: [{ text }], next: { type: 'continue' } };
      return {
        data: { left: 0 },
        next: { type: 'done', output: { id: 'r', status: 'completed', responseMessage: text } },
      };
    },
  };
}

/** A runner that fails the first time it gets an update, and records the updates it got. */
function updateRunner(): AgentRunner<object> & { updates: unknown[] } {
  const runner = {
    updates: [] as unknown[],
    failedOnce: false,
    dataSchema: z.object({}),
    start: () => ({}),
    step: async (data: object, context: { update?: unknown }) => {
      if (context.update !== undefined) {
        runner.updates.push(context.update);
        if (!runner.failedOnce) {
          runner.failedOnce = true;
          throw new Error('flaky');
        }
        return {
          data,
          next: {
            type: 'done' as const,
            output: { id: 'r', status: 'completed' as const, responseMessage: 'Got it.' },
          },
        };
      }
      return { data, next: { type: 'continue' as const, delayMs: 60_000 } };
    },
  };
  return runner;
}

/** A runner whose every step fails in a way worth another try, counting its attempts. */
function failingRunner(next: StepResult<object>['next']): AgentRunner<object> & { calls: number } {
  const runner = {
    calls: 0,
    dataSchema: z.object({}),
    start: () => ({}),
    step: async (data: object): Promise<StepResult<object>> => {
      runner.calls += 1;
      return { data, next };
    },
  };
  return runner;
}

/**
 * The delayed retry a failed step committed, read from the run's record (the delay queue hides
 * it until it is due), with the delay it waits.
 */
async function delayedRetry(
  rt: Awaited<ReturnType<typeof testRuntime>>,
  conversation: string,
  clock: number,
): Promise<{ job: Job; delayMs: number }> {
  const head = await rt.store.load(conversation);
  const [runId, pointer] = Object.entries(head?.runs ?? {})[0] ?? [];
  if (!runId || !pointer) throw new Error(`no run in progress for ${conversation}`);
  const record = await rt.store.loadRun(conversation, runId, pointer);
  const run = RunState.parse(record?.data);
  const job: Job = {
    type: 'agent_step',
    id: `${runId}#${run.steps}`,
    conversation_id: conversation,
    turn_id: run.turnId,
    frame_id: run.frameId,
    run_id: runId,
    step: run.steps,
  };
  return { job, delayMs: (run.notBefore ?? clock) - clock };
}

const INTERNAL_ERROR = 'Sorry, something went wrong on my side. Please try again in a moment.';

/** Starts the research flow and answers its first step job. */
async function startResearch(rt: TestRuntime, conversation: string) {
  rt.llm.reply('start flow research');
  const job = userMessage(conversation, 'research');
  await processJob(job, rt.deps, NEVER);
  return { job, step0: await pendingStep(rt, conversation) };
}

/** A runner whose single step answers what `step` returns, recording the contexts it got. */
function scriptedRunner(
  step: (context: StepContext) => Promise<StepResult<object>>,
): AgentRunner<object> & { contexts: StepContext[] } {
  const runner = {
    contexts: [] as StepContext[],
    dataSchema: z.object({}),
    start: () => ({}),
    step: async (_data: object, context: StepContext) => {
      runner.contexts.push(context);
      return step(context);
    },
  };
  return runner;
}

describe('durable agent runs', () => {
  it('keep long agent messages from growing the head past an item', async () => {
    const rt = await suite.runtime({
      runners: { runnerFor: () => chattyRunner(8, 45_000) },
    });
    rt.llm.reply('start flow research');
    const job = userMessage('chatty', 'research');
    await rt.queue.enqueue([job]);
    await rt.drain(async () => (await rt.replies.read('chatty', job.turn_id)).settled);
    const texts = (await rt.replies.read('chatty', job.turn_id)).messages.map(
      (m) => m.message.text ?? '',
    );
    expect(texts.slice(0, 8).every((t) => t.length === 8001 && t.endsWith('…'))).toBe(true);
    const head = await rt.store.load('chatty');
    expect(Buffer.byteLength(JSON.stringify(head))).toBeLessThan(200_000);
  }, 30_000);

  it('give a pushed update whose step failed to the retried step', async () => {
    const runner = updateRunner();
    const rt = await suite.runtime({ runners: { runnerFor: () => runner } });
    rt.llm.reply('start flow research');
    const job = userMessage('pushed', 'research');
    await processJob(job, rt.deps, NEVER);
    const step0 = await pendingStep(rt, 'pushed');
    await processJob(step0, rt.deps, NEVER);
    const runId = step0.type === 'agent_step' ? step0.run_id : '';
    const frameId = step0.type === 'agent_step' ? step0.frame_id : '';
    const update: Job = {
      type: 'agent_update',
      id: 'push-1',
      conversation_id: 'pushed',
      turn_id: job.turn_id,
      run_id: runId,
      frame_id: frameId,
      update: { state: 'completed' },
    };
    expect(await processJob(update, rt.deps, NEVER)).toBe('done');
    // The failed attempt's retry waits a second on the delay queue.
    const retry = await pendingStep(rt, 'pushed', rt.delayQueueUrl);
    expect(await processJob({ ...retry, not_before: undefined }, rt.deps, NEVER)).toBe('done');
    expect(runner.updates).toEqual([{ state: 'completed' }, { state: 'completed' }]);
    expect(
      (await rt.replies.read('pushed', job.turn_id)).messages.map((m) => m.message.text),
    ).toContain('Got it.');
  });

  it('run one step per job, send intermediate messages, and continue the flow when done', async () => {
    const runner = countingRunner(3);
    const rt = await suite.runtime({ runners: { runnerFor: () => runner } });
    rt.llm.reply('start flow research');
    const job = userMessage('steps', 'research EVs');
    await rt.queue.enqueue([job]);
    await rt.drain(async () => (await rt.replies.read('steps', job.turn_id)).settled);
    const replies = await rt.replies.read('steps', job.turn_id);
    expect(replies.messages.map((m) => m.message.text)).toEqual([
      'working (2 left)',
      'working (1 left)',
      'Research done.',
      'Noted EVs are cheaper to run.',
      'Can I help you with anything else?',
    ]);
    expect(runner.calls).toBe(3);
    const head = await rt.store.load('steps');
    expect(head?.runs).toEqual({});
    const tracker = await readTracker(rt.store, 'steps');
    const kinds = tracker.events.map((e) => (e as { event: string }).event);
    expect(kinds).toContain('agent_completed');
  }, 30_000);

  it('answer a message that arrives while the agent works with the processing pattern, at once', async () => {
    const runner = countingRunner(2);
    const rt = await suite.runtime({ runners: { runnerFor: () => runner } });
    rt.llm.reply('start flow research', 'start flow research');
    const first = userMessage('busy', 'research');
    await processJob(first, rt.deps, NEVER);
    const second = userMessage('busy', 'are you done?');
    await processJob(second, rt.deps, NEVER);
    expect(
      (await rt.replies.read('busy', second.turn_id)).messages.map((m) => m.message.text),
    ).toEqual(["I'm still working on your request. I'll let you know as soon as it's done."]);
    // The first turn still waits for the run: the second message does not end it.
    expect((await rt.replies.read('busy', first.turn_id)).settled).toBe(false);
  });

  it('retry a failing step with backoff, then fail the flow', async () => {
    const runner = countingRunner(1, 0, true);
    const rt = await suite.runtime({ runners: { runnerFor: () => runner } });
    rt.llm.reply('start flow research');
    const job = userMessage('failing', 'research');
    await rt.queue.enqueue([job]);
    await rt.drain(async () => (await rt.replies.read('failing', job.turn_id)).settled);
    expect(runner.calls).toBe(4);
    expect(
      (await rt.replies.read('failing', job.turn_id)).messages.map((m) => m.message.text),
    ).toEqual(['Sorry, something went wrong on my side. Please try again in a moment.']);
    // The user hears that something went wrong; the logs say what.
    const warnings = rt.logs.filter((line) => line.startsWith("warn an agent's"));
    expect(warnings).toHaveLength(4);
    expect(warnings[0]).toMatch(
      /^warn an agent's step failed; it runs again in \d+ ms: tool server unreachable \{"conversationId":"failing",.*"attempt":1\}$/,
    );
    expect(warnings[3]).toMatch(
      /^warn an agent's run failed after 4 attempts: tool server unreachable /,
    );
  }, 30_000);

  it('never run a step of a run whose flow was cancelled', async () => {
    const runner = countingRunner(5);
    const rt = await suite.runtime({ runners: { runnerFor: () => runner } });
    rt.llm.reply('start flow research', 'cancel flow');
    const first = userMessage('cancelled', 'research');
    await processJob(first, rt.deps, NEVER);
    expect((await rt.replies.read('cancelled', first.turn_id)).settled).toBe(false);
    const started = await rt.store.load('cancelled');
    const runId = Object.keys(started?.runs ?? {})[0] as string;
    const firstStep = started?.outbox?.jobs[0] ?? (await pendingStep(rt, 'cancelled'));
    await processJob(userMessage('cancelled', 'stop it'), rt.deps, NEVER);
    expect((await rt.store.load('cancelled'))?.runs).toEqual({});
    // The webhook still waiting on the first turn hears that it is over.
    expect((await rt.replies.read('cancelled', first.turn_id)).settled).toBe(true);
    expect(await processJob(firstStep as Job, rt.deps, NEVER)).toBe('stale');
    expect(runner.calls).toBe(0);
    expect(runId).toMatch(/^run-/);
  });

  it('cancel a flow whose run record is gone or unreadable, and let a failing store through', async () => {
    const runner = countingRunner(5);
    const rt = await suite.runtime({ runners: { runnerFor: () => runner } });
    const cancel = async (conversation: string, store: ConversationStore) => {
      rt.llm.reply('start flow research', 'cancel flow');
      await processJob(userMessage(conversation, 'research'), rt.deps, NEVER);
      return processJob(userMessage(conversation, 'stop it'), { ...rt.deps, store }, NEVER);
    };
    expect(
      await cancel('cancel-gone', storeWith(rt.store, { loadRun: async () => undefined })),
    ).toBe('done');
    expect((await rt.store.load('cancel-gone'))?.runs).toEqual({});
    const unreadable = storeWith(rt.store, {
      loadRun: async (_conversationId, runId, jobId) => ({
        runId,
        jobId,
        agentId: 'researcher',
        data: { version: 99 },
      }),
    });
    expect(await cancel('cancel-bad', unreadable)).toBe('done');
    expect((await rt.store.load('cancel-bad'))?.state.stack).toEqual([]);
    const failing = storeWith(rt.store, {
      loadRun: async () => {
        throw new Error('throttled');
      },
    });
    await expect(cancel('cancel-down', failing)).rejects.toThrow('throttled');
  });

  it('ignore a late duplicate of an earlier step', async () => {
    const runner = countingRunner(4);
    const rt = await suite.runtime({ runners: { runnerFor: () => runner } });
    rt.llm.reply('start flow research');
    await processJob(userMessage('late', 'research'), rt.deps, NEVER);
    const step0 = await pendingStep(rt, 'late');
    expect(await processJob(step0, rt.deps, NEVER)).toBe('done');
    const step1 = await pendingStep(rt, 'late');
    expect(await processJob(step1, rt.deps, NEVER)).toBe('done');
    // Step 0 comes again (a standard queue delivers at least once): it must not run.
    const again = { ...step0, id: `${step0.id}` };
    const before = await rt.store.load('late');
    expect(await processJob({ ...again }, rt.deps, NEVER)).toBe('duplicate');
    expect(await processJob({ ...step1, id: 'other-id-for-step-1' }, rt.deps, NEVER)).toBe('stale');
    expect(runner.calls).toBe(2);
    expect((await rt.store.load('late'))?.version).toBe(before?.version);
  });

  it('leave an outbox whose only follow-up is the next step for that step to replace, delivering it once', async () => {
    const runner = countingRunner(3);
    const rt = await suite.runtime({ runners: { runnerFor: () => runner } });
    const batches: string[] = [];
    const clears: number[] = [];
    const deps = {
      ...rt.deps,
      output: {
        deliver: async (batch: ReplyBatch) => {
          batches.push(batch.jobId);
          await rt.deps.output.deliver(batch);
        },
      },
      store: storeWith(rt.store, {
        clearOutbox: async (conversationId, version) => {
          clears.push(version);
          await rt.store.clearOutbox(conversationId, version);
        },
      }),
    };
    rt.llm.reply('start flow research');
    const job = userMessage('follow', 'research');
    await processJob(job, deps, NEVER);
    const step0 = await pendingStep(rt, 'follow');
    expect((await rt.store.load('follow'))?.outbox?.jobs.map((j) => j.id)).toEqual([step0.id]);

    await processJob(step0, deps, NEVER);

    // The step did not deliver its parent's outbox again; its commit replaced it.
    expect(batches).toEqual([job.id, step0.id]);
    expect(clears).toEqual([]);
    expect((await rt.store.load('follow'))?.outbox?.job_id).toBe(step0.id);
  });

  it('deliver such an outbox again when another job comes first, duplicating nothing', async () => {
    const runner = countingRunner(2);
    const rt = await suite.runtime({ runners: { runnerFor: () => runner } });
    const delivered: string[] = [];
    const deps = {
      ...rt.deps,
      output: {
        deliver: async (batch: ReplyBatch) => {
          delivered.push(batch.jobId);
          await rt.deps.output.deliver(batch);
        },
      },
    };
    rt.llm.reply('start flow research', 'start flow research', 'offtopic reply');
    const first = userMessage('overtaken', 'research');
    await processJob(first, deps, NEVER);
    const step0 = await pendingStep(rt, 'overtaken');
    // A message the user sent comes before the step, finds the outbox and delivers it again.
    const second = userMessage('overtaken', 'are you done?');
    await processJob(second, deps, NEVER);
    await processJob(step0, deps, NEVER);
    await processJob(await pendingStep(rt, 'overtaken'), deps, NEVER);

    expect(delivered.slice(0, 3)).toEqual([first.id, first.id, second.id]);
    const texts = (await rt.replies.read('overtaken', first.turn_id)).messages.map(
      (m) => m.message.text,
    );
    expect(texts).toEqual([
      'working (1 left)',
      'Research done.',
      'Noted EVs are cheaper to run.',
      'Can I help you with anything else?',
      expect.not.stringMatching(/wrong/),
    ]);
    expect(runner.calls).toBe(2);
    const events = await rt.store.readEvents('overtaken');
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i));
  });

  it('clear the outbox a follow-up step was to replace when that step turns out stale', async () => {
    const runner = countingRunner(2);
    const rt = await suite.runtime({ runners: { runnerFor: () => runner } });
    const { step0 } = await startResearch(rt, 'stale-follow');
    const before = await rt.store.load('stale-follow');

    if (step0.type !== 'agent_step') throw new Error(`expected an agent step, got ${step0.type}`);
    expect(await processJob({ ...step0, step: 7 }, rt.deps, NEVER)).toBe('stale');

    const after = await rt.store.load('stale-follow');
    expect(after?.outbox).toBeUndefined();
    expect(after?.version).toBe(before?.version);
    expect(runner.calls).toBe(0);
  });

  it('end a run whose stored state is gone with the internal-error pattern', async () => {
    const runner = countingRunner(3);
    const rt = await suite.runtime({ runners: { runnerFor: () => runner } });
    rt.llm.reply('start flow research');
    const job = userMessage('lost', 'research');
    await processJob(job, rt.deps, NEVER);
    const step0 = await pendingStep(rt, 'lost');
    // The run's record has expired (or was never written): the store no longer has it.
    const store = Object.assign(Object.create(rt.deps.store), { loadRun: async () => undefined });
    const gone = { ...rt.deps, store };
    expect(await processJob(step0, gone, NEVER)).toBe('done');
    expect(
      (await rt.replies.read('lost', job.turn_id)).messages.map((m) => m.message.text),
    ).toEqual(['Sorry, something went wrong on my side. Please try again in a moment.']);
    expect((await rt.store.load('lost'))?.state.stack).toEqual([]);
  });

  it("retry a runner's recoverable error as delayed steps after 1, 2 and 4 s, then fail the flow", async () => {
    const runner = failingRunner({
      type: 'done',
      output: { id: 'r', status: 'recoverable_error', errorMessage: 'rate limited' },
    });
    const clock = Date.now();
    const rt = await suite.runtime({
      runners: { runnerFor: () => runner },
      now: () => clock,
    });
    rt.llm.reply('start flow research');
    const job = userMessage('recoverable', 'research');
    await processJob(job, rt.deps, NEVER);
    let step = await pendingStep(rt, 'recoverable');
    const delays: number[] = [];
    for (let retry = 0; retry < 3; retry++) {
      expect(await processJob(step, rt.deps, NEVER)).toBe('done');
      const next = await delayedRetry(rt, 'recoverable', clock);
      delays.push(next.delayMs);
      step = next.job;
    }
    expect(delays).toEqual([1000, 2000, 4000]);
    expect(await processJob(step, rt.deps, NEVER)).toBe('done');
    expect(runner.calls).toBe(4);
    expect(
      (await rt.replies.read('recoverable', job.turn_id)).messages.map((m) => m.message.text),
    ).toEqual([INTERNAL_ERROR]);
    expect((await rt.store.load('recoverable'))?.runs).toEqual({});
  });

  it('wait at least the retry-after a failing step names, with jitter on the backoff', async () => {
    const runner = failingRunner({ type: 'retry', reason: '429', retryAfterMs: 30_000 });
    const clock = Date.now();
    const rt = await suite.runtime({
      runners: { runnerFor: () => runner },
      now: () => clock,
      random: () => 0.5,
    });
    rt.llm.reply('start flow research');
    await processJob(userMessage('retry-after', 'research'), rt.deps, NEVER);
    await processJob(await pendingStep(rt, 'retry-after'), rt.deps, NEVER);
    expect((await delayedRetry(rt, 'retry-after', clock)).delayMs).toBe(30_000);
  });

  it('refuse a run record of an unknown version: the flow ends with the internal-error pattern, nothing else is lost', async () => {
    const runner = countingRunner(3);
    const rt = await suite.runtime({ runners: { runnerFor: () => runner } });
    rt.llm.reply('start flow research');
    const job = userMessage('future', 'research');
    await processJob(job, rt.deps, NEVER);
    const step0 = await pendingStep(rt, 'future');
    const head = await rt.store.load('future');
    const [runId, pointer] = Object.entries(head?.runs ?? {})[0] ?? ['', ''];
    const key = { pk: conversationKey('future'), sk: runKey(runId, pointer) };
    const { documents, tableName } = suite.emulators;
    const { Item } = await documents.send(new GetCommand({ TableName: tableName, Key: key }));
    // Records are stored deflated: the same record as a later build would write it.
    const data = { ...JSON.parse(inflateRawSync(Item?.data).toString('utf8')), version: 99 };
    await documents.send(
      new PutCommand({
        TableName: tableName,
        Item: { ...Item, data: deflateRawSync(JSON.stringify(data)) },
      }),
    );

    expect(await processJob(step0, rt.deps, NEVER)).toBe('done');
    expect(runner.calls).toBe(0);
    expect(
      (await rt.replies.read('future', job.turn_id)).messages.map((m) => m.message.text),
    ).toEqual([INTERNAL_ERROR]);
    expect(await internalErrorReasons(rt, 'future')).toEqual([
      `the agent's run cannot go on: the record of run ${runId} cannot be read: version 99 is not supported (this build reads version 1)`,
    ]);
    const after = await rt.store.load('future');
    expect(after?.state.stack).toEqual([]);
    expect(after?.runs).toEqual({});
    expect(after?.recentJobs).toEqual([job.id, step0.id]);
    const tracker = await readTracker(rt.store, 'future');
    expect(tracker.events.filter((e) => e.event === 'user').map((e) => e.event)).toEqual(['user']);
    expect(tracker.events.map((e) => e.event)).toEqual(
      expect.arrayContaining([
        'flow_started',
        'agent_started',
        'agent_cancelled',
        'flow_cancelled',
      ]),
    );
    const events = await rt.store.readEvents('future');
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i));
  });

  it('name why a run cannot go on in the internal-error pattern they start', async () => {
    const runner = countingRunner(3);
    let present = true;
    const rt = await suite.runtime({
      runners: { runnerFor: () => (present ? runner : undefined) },
    });
    const gone = await startResearch(rt, 'why-gone');
    const forgetful = {
      ...rt.deps,
      store: storeWith(rt.store, { loadRun: async () => undefined }),
    };
    await processJob(gone.step0, forgetful, NEVER);
    expect(await internalErrorReasons(rt, 'why-gone')).toEqual([
      "the agent's run cannot go on: its stored state is gone",
    ]);

    const removed = await startResearch(rt, 'why-runner');
    present = false;
    await processJob(removed.step0, rt.deps, NEVER);
    expect(await internalErrorReasons(rt, 'why-runner')).toEqual([
      "the agent's run cannot go on: no runner for agent researcher",
    ]);
    expect(
      (await rt.replies.read('why-runner', removed.job.turn_id)).messages.map(
        (m) => m.message.text,
      ),
    ).toEqual([INTERNAL_ERROR]);
    expect(runner.calls).toBe(0);
  });

  it("end a run whose runner's data no longer fits its schema with the internal-error pattern", async () => {
    const before = countingRunner(3);
    const after: AgentRunner<{ topic: string }> = {
      dataSchema: z.object({ topic: z.string() }),
      start: () => ({ topic: 'EVs' }),
      step: async () => {
        throw new Error('never runs');
      },
    };
    let upgraded = false;
    const rt = await suite.runtime({
      runners: { runnerFor: () => (upgraded ? (after as AgentRunner) : before) },
    });
    const { job, step0 } = await startResearch(rt, 'schema');
    upgraded = true;
    expect(await processJob(step0, rt.deps, NEVER)).toBe('done');
    const [reason] = await internalErrorReasons(rt, 'schema');
    expect(reason).toMatch(
      /^the agent's run cannot go on: the record of run run-\w+ cannot be read: the runner's data does not fit its schema: .*topic/,
    );
    expect(
      (await rt.replies.read('schema', job.turn_id)).messages.map((m) => m.message.text),
    ).toEqual([INTERNAL_ERROR]);
  });

  it('leave a step on the queue when the store fails while reading its run', async () => {
    const runner = countingRunner(3);
    const rt = await suite.runtime({ runners: { runnerFor: () => runner } });
    const { step0 } = await startResearch(rt, 'store-down');
    const failing = storeWith(rt.store, {
      loadRun: async () => {
        throw new Error('throttled');
      },
    });
    const before = await rt.store.load('store-down');
    await expect(processJob(step0, { ...rt.deps, store: failing }, NEVER)).rejects.toThrow(
      'throttled',
    );
    expect((await rt.store.load('store-down'))?.version).toBe(before?.version);
    expect(await processJob(step0, rt.deps, NEVER)).toBe('done');
    expect(runner.calls).toBe(1);
  });

  it('ignore a retry-after that is not a positive finite time and back off as usual', async () => {
    for (const retryAfterMs of [0, -5_000, Number.NaN, Number.POSITIVE_INFINITY]) {
      const runner = failingRunner({ type: 'retry', reason: '429', retryAfterMs });
      const clock = Date.now();
      const rt = await suite.runtime({ runners: { runnerFor: () => runner }, now: () => clock });
      const conversation = `retry-after-${String(retryAfterMs)}`;
      const { step0 } = await startResearch(rt, conversation);
      await processJob(step0, rt.deps, NEVER);
      expect((await delayedRetry(rt, conversation, clock)).delayMs).toBe(1000);
    }
  });

  it('fail the flow with the last failure a runner named, or a general one when it named none', async () => {
    for (const [output, reason] of [
      [{ id: 'r', status: 'recoverable_error' }, 'the agent reported a recoverable error'],
      [{ id: 'r', status: 'recoverable_error', errorMessage: 'quota exceeded' }, 'quota exceeded'],
    ] as const) {
      const runner = failingRunner({ type: 'done', output });
      const clock = Date.now();
      const rt = await suite.runtime({ runners: { runnerFor: () => runner }, now: () => clock });
      const conversation = `named-${reason.length}`;
      let { step0: step } = await startResearch(rt, conversation);
      for (let attempt = 0; attempt < 3; attempt++) {
        await processJob(step, rt.deps, NEVER);
        step = (await delayedRetry(rt, conversation, clock)).job;
      }
      await processJob(step, rt.deps, NEVER);
      expect(await internalErrorReasons(rt, conversation)).toEqual([reason]);
    }
  });

  it('keep an agent text of exactly the longest length whole, and messages without text as they are', async () => {
    const text = 'y'.repeat(8000);
    const runner = scriptedRunner(async () => ({
      data: {},
      messages: [{ text }, { image: 'https://example.com/car.png' }],
      next: { type: 'done', output: { id: 'r', status: 'completed', responseMessage: text } },
    }));
    const rt = await suite.runtime({ runners: { runnerFor: () => runner } });
    const { job, step0 } = await startResearch(rt, 'exact');
    await processJob(step0, rt.deps, NEVER);
    const messages = (await rt.replies.read('exact', job.turn_id)).messages.map((m) => m.message);
    expect(messages.slice(0, 3)).toEqual([
      { text },
      { image: 'https://example.com/car.png' },
      { text },
    ]);
  });

  it('give a step the deadline of its calls, and an update only when one was pushed', async () => {
    const runner = scriptedRunner(async () => ({ data: {}, next: { type: 'continue' } }));
    const rt = await suite.runtime({ runners: { runnerFor: () => runner } });
    const { step0 } = await startResearch(rt, 'context');
    await processJob(step0, rt.deps, NEVER);
    const deadline = Date.now() + 40_000;
    await processJob(await pendingStep(rt, 'context'), rt.deps, NEVER, { deadline });
    const [first, second] = runner.contexts;
    expect(first && Object.keys(first).sort()).toEqual(['conversationId', 'runId', 'signal']);
    expect(second?.deadline).toBeGreaterThan(deadline - 6_000);
    expect(second?.deadline).toBeLessThan(deadline);
    expect(second && 'update' in second).toBe(false);
  });

  it('queue the next step after the delay the runner asked for', async () => {
    const runner = scriptedRunner(async () => ({
      data: {},
      next: { type: 'continue', delayMs: 60_000 },
    }));
    const clock = Date.now();
    const rt = await suite.runtime({ runners: { runnerFor: () => runner }, now: () => clock });
    const { step0 } = await startResearch(rt, 'polling');
    await processJob(step0, rt.deps, NEVER);
    const next = await delayedRetry(rt, 'polling', clock);
    expect(next.delayMs).toBe(60_000);
    expect(next.job).toMatchObject({ step: 1 });
  });

  it('leave a step whose job was stopped on the queue, counting no failure', async () => {
    const stop = new AbortController();
    const runner = scriptedRunner(async () => {
      stop.abort();
      throw new Error('aborted');
    });
    const rt = await suite.runtime({ runners: { runnerFor: () => runner } });
    const { step0 } = await startResearch(rt, 'stopped');
    const before = await rt.store.load('stopped');
    await expect(processJob(step0, rt.deps, stop.signal)).rejects.toThrow('aborted');
    expect((await rt.store.load('stopped'))?.version).toBe(before?.version);
  });

  it('keep the run going when the user writes while it works, finish it, then answer the message', async () => {
    const runner = countingRunner(2);
    const rt = await suite.runtime({ runners: { runnerFor: () => runner } });
    const { job, step0 } = await startResearch(rt, 'interrupted');
    // The message waits for the run; once it is over, it is a turn of its own (chitchat here).
    rt.llm.reply('start flow research', 'offtopic reply');
    await processJob(userMessage('interrupted', 'still there?'), rt.deps, NEVER);
    expect(Object.keys((await rt.store.load('interrupted'))?.runs ?? {})).toEqual([
      step0.type === 'agent_step' ? step0.run_id : '',
    ]);
    await processJob(step0, rt.deps, NEVER);
    await processJob(await pendingStep(rt, 'interrupted'), rt.deps, NEVER);
    expect(
      (await rt.replies.read('interrupted', job.turn_id)).messages.map((m) => m.message.text),
    ).toEqual([
      'working (1 left)',
      'Research done.',
      'Noted EVs are cheaper to run.',
      'Can I help you with anything else?',
      expect.not.stringMatching(/wrong/),
    ]);
    expect(rt.llm.prompts).toHaveLength(3);
    expect((await rt.store.load('interrupted'))?.channel).toBe('rest');
  });

  it('tell the journal of each committed step: when, how long, how it ended, the last one with its output', async () => {
    const runner = countingRunner(2);
    let failOnce = true;
    const flaky: AgentRunner<CountingData> = {
      ...runner,
      step: async (data, context) => {
        if (failOnce) {
          failOnce = false;
          throw new Error('tool server unreachable');
        }
        return runner.step(data, context);
      },
    };
    const rt = await suite.runtime({ runners: { runnerFor: () => flaky } });
    rt.llm.reply('start flow research');
    const job = userMessage('journal', 'research');
    await rt.queue.enqueue([job]);
    await rt.drain(async () => (await rt.replies.read('journal', job.turn_id)).settled);
    const steps = rt.steps.filter((s) => s.conversationId === 'journal');
    expect(steps.map((s) => [s.step, s.outcome])).toEqual([
      [0, 'retrying'],
      [1, 'continued'],
      [2, 'done'],
    ]);
    expect(steps[0]).toMatchObject({ reason: 'tool server unreachable', agentId: 'researcher' });
    expect(steps[0]?.retryInMs).toBeGreaterThan(0);
    expect(steps[2]?.output).toMatchObject({
      status: 'completed',
      responseMessage: 'Research done.',
    });
    expect(steps[1]?.runner).toEqual({ remaining: 1, failuresLeft: 0 });
    expect(new Set(steps.map((s) => s.runId)).size).toBe(1);
    for (const step of steps) {
      expect(step.startedAt).toBeGreaterThan(0);
      expect(step.durationMs).toBeGreaterThanOrEqual(0);
    }
  }, 30_000);

  it('deliver what a step committed even when the journal fails', async () => {
    const runner = countingRunner(1);
    const rt = await suite.runtime({
      runners: { runnerFor: () => runner },
      journal: () => {
        throw new Error('journal full');
      },
    });
    const { job, step0 } = await startResearch(rt, 'journal-fails');
    await processJob(step0, rt.deps, NEVER);
    const replies = await rt.replies.read('journal-fails', job.turn_id);
    expect(replies.settled).toBe(true);
    expect(replies.messages.map((m) => m.message.text)).toContain('Research done.');
    expect(rt.logs.some((line) => line.startsWith('warn the step journal failed'))).toBe(true);
  });

  it('write no run record for a step that ends its run', async () => {
    const runner = countingRunner(1);
    const rt = await suite.runtime({ runners: { runnerFor: () => runner } });
    const { step0 } = await startResearch(rt, 'one-record');
    await processJob(step0, rt.deps, NEVER);
    const items = JSON.parse(await rt.scanTable()) as { pk: string; sk: string }[];
    const runItems = items.filter((i) => i.pk.includes('one-record') && i.sk.startsWith('run#'));
    expect(runItems).toHaveLength(1);
  });
});
