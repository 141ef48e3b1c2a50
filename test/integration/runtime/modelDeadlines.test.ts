import { getEventListeners } from 'node:events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OpenAiChatModel } from '../../../src/llm/index.js';
import { type Job, type JobSource, runWorkerLoop } from '../../../src/runtime/index.js';
import { SILENT_LOGGER } from '../../helpers/logger.js';
import { runtimeSuite, userMessage } from '../../helpers/runtime.js';
import { ScriptedOpenAi } from '../../helpers/scriptedOpenAi.js';

const FILES = {
  'domain.yml': `slots:
  name:
    type: text
responses:
  utter_ask_name:
    - text: What is your name?
`,
  'data/flows.yml': `flows:
  greet:
    description: Greet the user by name.
    steps:
      - collect: name
`,
};

const INTERNAL_ERROR = 'Sorry, something went wrong on my side. Please try again in a moment.';
const suite = runtimeSuite(FILES);

describe('model calls under a job budget', () => {
  // Each test gets its own model server, so scripted replies never leak between tests.
  let server: ScriptedOpenAi;
  const model = () =>
    new OpenAiChatModel({
      model: 'scripted',
      apiKey: 'sk-test',
      baseURL: server.url,
    });

  beforeEach(async () => {
    server = await ScriptedOpenAi.start();
  });
  afterEach(async () => {
    await server.close();
  });

  it('retries a model slower than the budget as delayed jobs, then answers with the internal-error pattern', async () => {
    server.reply(...Array.from({ length: 4 }, () => ({ text: 'start flow greet', delayMs: 3000 })));
    const rt = await suite.runtime({ model: model(), jobBudgetMs: 1200 });
    const job = userMessage('slow-model', 'hello');
    await rt.queue.enqueue([job]);
    await rt.drain(async () => (await rt.replies.read('slow-model', job.turn_id)).settled);

    // One try and three retries, each cut off by the budget: no redelivery, no failed job.
    expect(server.requests).toHaveLength(4);
    expect(rt.logs.filter((line) => line.startsWith('error'))).toEqual([]);
    const replies = await rt.replies.read('slow-model', job.turn_id);
    expect(replies.messages.map((m) => m.message.text)).toEqual([INTERNAL_ERROR]);
    const head = await rt.store.load('slow-model');
    expect(head?.recentJobs).toEqual([
      job.id,
      `${job.turn_id}~retry1`,
      `${job.turn_id}~retry2`,
      `${job.turn_id}~retry3`,
    ]);
    const users = (await rt.store.readEvents('slow-model')).filter((e) => e.event.event === 'user');
    expect(users).toHaveLength(1);
  }, 30_000);

  it('answers a message whose model recovers on a retry as if nothing happened', async () => {
    server.reply({ status: 503 }, 'start flow greet');
    const rt = await suite.runtime({ model: model() });
    const job = userMessage('flaky-model', 'hi');
    await rt.queue.enqueue([job]);
    await rt.drain(async () => (await rt.replies.read('flaky-model', job.turn_id)).settled);
    const replies = await rt.replies.read('flaky-model', job.turn_id);
    expect(replies.messages.map((m) => m.message.text)).toEqual(['What is your name?']);
    expect(server.requests).toHaveLength(2);
  }, 30_000);

  it('does not retry a model error that a later try cannot fix', async () => {
    server.reply({ status: 401 });
    const rt = await suite.runtime({ model: model() });
    const job = userMessage('bad-key', 'hi');
    await rt.queue.enqueue([job]);
    await rt.drain(async () => (await rt.replies.read('bad-key', job.turn_id)).settled);
    expect((await rt.store.load('bad-key'))?.recentJobs).toEqual([job.id]);
    const replies = await rt.replies.read('bad-key', job.turn_id);
    expect(replies.messages.map((m) => m.message.text)).toEqual([INTERNAL_ERROR]);
  }, 30_000);
});

describe('job signals', () => {
  it('leave no listener on the long-lived stop signal however many model calls jobs make', async () => {
    const server = await ScriptedOpenAi.start(Array.from({ length: 20 }, () => 'ok'));
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      const llm = new OpenAiChatModel({
        model: 'scripted',
        apiKey: 'sk-test',
        baseURL: server.url,
      });
      const stop = new AbortController();
      const hardStop = new AbortController();
      const jobs: Job[] = Array.from({ length: 20 }, (_, i) => userMessage(`signals-${i}`, 'x'));
      let done = 0;
      const source: JobSource = {
        receive: async () =>
          jobs.splice(0, 1).map((job) => ({ job, handle: job.id, receiveCount: 1 })),
        complete: async () => {
          done += 1;
          if (done === 20) stop.abort();
        },
        retry: async () => {},
      };
      await runWorkerLoop({
        source,
        process: (_job, signal) =>
          llm.complete({ messages: [{ role: 'user', content: 'x' }], signal }),
        isRetryable: () => false,
        logger: SILENT_LOGGER,
        signal: stop.signal,
        jobSignal: hardStop.signal,
      });
      expect(done).toBe(20);
      expect(getEventListeners(hardStop.signal, 'abort')).toHaveLength(0);
      expect(warnings).toEqual([]);
    } finally {
      process.off('warning', onWarning);
      await server.close();
    }
  });
});
