import { describe, expect, it } from 'vitest';
import { readTracker } from '../../../src/channels/tracker.js';
import { replay } from '../../../src/dialogue/index.js';
import {
  ConcurrentUpdateError,
  type Job,
  processJob,
  processJobRetryingRaces,
} from '../../../src/runtime/index.js';
import { GREETING_PROJECT } from '../../helpers/project.js';
import { racingStore } from '../../helpers/raceStore.js';
import { NEVER, runtimeSuite, userMessage } from '../../helpers/runtime.js';

const suite = runtimeSuite(GREETING_PROJECT);

describe('runtime invariants (dynalite + fauxqs)', () => {
  it('a job delivered twice changes nothing the second time', async () => {
    const rt = await suite.runtime();
    rt.llm.reply('start flow greet');
    const job = userMessage('twice', 'hello');
    expect(await processJob(job, rt.deps, NEVER)).toBe('done');
    const before = await rt.scanTable();
    expect(await processJob(job, rt.deps, NEVER)).toBe('duplicate');
    expect(await rt.scanTable()).toBe(before);
    expect(
      (await rt.replies.read('twice', job.turn_id)).messages.map((m) => m.message.text),
    ).toEqual(['Your name?']);
  });

  it('processes 50 messages sent at once to one conversation, in order, losing no event', async () => {
    const rt = await suite.runtime();
    const jobs = Array.from({ length: 50 }, (_, i) =>
      userMessage('burst', `/SetSlots(counter=${i})`),
    );
    await Promise.all(
      [0, 10, 20, 30, 40].map((start) => rt.queue.enqueue(jobs.slice(start, start + 10))),
    );
    // The five batches raced each other; within a batch SQS keeps the order.
    await rt.drain(async () => ((await rt.store.load('burst'))?.recentJobs.length ?? 0) >= 50);
    const tracker = await readTracker(rt.store, 'burst');
    const texts = tracker.events.flatMap((e) =>
      (e as { event: string }).event === 'user' ? [(e as { text: string }).text] : [],
    );
    expect(texts).toHaveLength(50);
    expect(new Set(texts).size).toBe(50);
    for (const start of [0, 10, 20, 30, 40]) {
      const batch = jobs
        .slice(start, start + 10)
        .map((j) => (j.type === 'user_message' ? j.text : ''));
      expect(texts.filter((t) => batch.includes(t))).toEqual(batch);
    }
    const head = await rt.store.load('burst');
    const logged = await rt.store.readEvents('burst');
    expect(logged.map((e) => e.seq)).toEqual(logged.map((_, i) => i));
    expect(
      replay(
        rt.deps.engine.start('burst'),
        logged.map((e) => e.event),
      ),
    ).toEqual(head?.state);
  }, 60_000);

  it('a worker that dies between commit and delivery loses and duplicates nothing', async () => {
    const rt = await suite.runtime();
    rt.llm.reply('start flow greet');
    const job = userMessage('crash', 'hi');
    let failNext = true;
    const crashing = {
      ...rt.deps,
      output: {
        deliver: async (batch: Parameters<typeof rt.replies.deliver>[0]) => {
          if (failNext) {
            failNext = false;
            throw new Error('worker killed');
          }
          return rt.replies.deliver(batch);
        },
      },
    };
    await expect(processJob(job, crashing, NEVER)).rejects.toThrow('worker killed');
    // The committed turn is visible (with its events pending), the reply is not yet delivered.
    expect((await rt.store.load('crash'))?.outbox?.messages).toHaveLength(1);
    expect((await rt.replies.read('crash', job.turn_id)).messages).toEqual([]);
    // The queue delivers the job again: the outbox goes out once and the turn does not run again.
    expect(await processJob(job, crashing, NEVER)).toBe('duplicate');
    expect(await processJob(job, crashing, NEVER)).toBe('duplicate');
    const replies = await rt.replies.read('crash', job.turn_id);
    expect(replies.messages.map((m) => m.message.text)).toEqual(['Your name?']);
    expect(replies.settled).toBe(true);
    const tracker = await readTracker(rt.store, 'crash');
    expect(tracker.events.filter((e) => (e as { event: string }).event === 'user')).toHaveLength(1);
    expect((await rt.store.load('crash'))?.outbox).toBeUndefined();
    expect(rt.llm.prompts).toHaveLength(1);
  });

  it('retries a job that lost the optimistic-concurrency race instead of merging', async () => {
    const rt = await suite.runtime();
    const a = userMessage('race', '/SetSlots(counter=1)');
    const b = userMessage('race', '/SetSlots(counter=2)');
    await processJob(userMessage('race', '/SetSlots(counter=0)'), rt.deps, NEVER);
    // Both jobs read the same head before either commits.
    const racing = racingStore(rt.store, 2);
    const deps = { ...rt.deps, store: racing.store };
    const results = await Promise.allSettled([
      processJob(a, deps, NEVER),
      processJob(b, deps, NEVER),
    ]);
    expect(racing.loadedVersions).toEqual([1, 1]);
    expect(racing.commits.sort()).toEqual(['ConcurrentUpdateError', 'committed']);
    const lost = results.flatMap((r, i) =>
      r.status === 'rejected' ? [{ error: r.reason, job: [a, b][i] as Job }] : [],
    );
    const won = [a, b].find((job) => job !== lost[0]?.job) as Job;
    expect(lost).toHaveLength(1);
    expect(lost[0]?.error).toBeInstanceOf(ConcurrentUpdateError);
    const loser = lost[0]?.job as Job;
    expect(await processJob(loser, rt.deps, NEVER)).toBe('done');
    const head = await rt.store.load('race');
    // The loser ran again on the winner's state: both effects, the loser's last.
    expect(head?.recentJobs.slice(-2)).toEqual([won.id, loser.id]);
    expect(head?.version).toBe(3);
    const logged = await rt.store.readEvents('race');
    expect(
      replay(
        rt.deps.engine.start('race'),
        logged.map((e) => e.event),
      ),
    ).toEqual(head?.state);
  });

  it('runs a job that lost the race again at once when asked to', async () => {
    const rt = await suite.runtime();
    await processJob(userMessage('race-again', '/SetSlots(counter=0)'), rt.deps, NEVER);
    const jobs = [1, 2, 3].map((i) => userMessage('race-again', `/SetSlots(counter=${i})`));
    // All three read the same head, so two of them lose the first round and must run again.
    const racing = racingStore(rt.store, 3);
    const deps = { ...rt.deps, store: racing.store };
    const outcomes = await Promise.all(
      jobs.map((job) => processJobRetryingRaces(job, deps, NEVER)),
    );
    expect(outcomes).toEqual(['done', 'done', 'done']);
    expect(racing.loadedVersions).toEqual([1, 1, 1]);
    expect(
      racing.commits.filter((c) => c === 'ConcurrentUpdateError').length,
    ).toBeGreaterThanOrEqual(2);
    expect(racing.commits.filter((c) => c === 'committed')).toHaveLength(3);
    const head = await rt.store.load('race-again');
    expect(head?.recentJobs).toHaveLength(4);
    expect([...(head?.recentJobs.slice(1) ?? [])].sort()).toEqual(jobs.map((j) => j.id).sort());
  });

  it('refuses malformed or oversized webhook bodies with a reason and writes nothing', async () => {
    const rt = await suite.runtime();
    const post = (body: string, contentType = 'application/json') =>
      rt.http.handle({
        method: 'POST',
        path: '/webhooks/rest/webhook',
        // An empty type stands for a request without the header.
        headers: contentType === '' ? {} : { 'content-type': contentType },
        body,
      });
    const before = await rt.scanTable();
    const cases: [string, string, number, string][] = [
      ['{"sender": "a", "message": ', 'application/json', 400, 'the body is not valid JSON'],
      ['{"message": "hi"}', 'application/json', 400, 'sender is required and must be a string'],
      ['{"sender": "a", "message": 5}', 'application/json', 400, 'message must be a string'],
      [
        '{"sender": "a", "message": "hi", "extra": 1}',
        'application/json',
        400,
        'unknown field(s): extra; the body has sender, message and optional metadata',
      ],
      [
        '{"sender": "a b", "message": "hi"}',
        'application/json',
        400,
        'sender: sender may contain letters, digits and . _ : @ + - only',
      ],
      [
        JSON.stringify({ sender: 'a', message: 'x'.repeat(70_000) }),
        'application/json',
        413,
        'the body is larger than 65536 bytes',
      ],
      [
        JSON.stringify({ sender: 'a', message: 'x'.repeat(5000) }),
        'application/json',
        400,
        'message: message must be at most 4000 characters',
      ],
      [
        'sender=a',
        'application/x-www-form-urlencoded',
        415,
        'the body must be JSON (Content-Type: application/json); the request sent application/x-www-form-urlencoded',
      ],
      [
        '{"sender": "a", "message": "hi"}',
        '',
        415,
        'the body must be JSON (Content-Type: application/json); the request has none',
      ],
      ['', 'application/json', 400, 'the body is empty'],
      [
        JSON.stringify({ sender: 'a', message: 'hi', metadata: { blob: 'z'.repeat(9000) } }),
        'application/json',
        400,
        'metadata: metadata must be at most 8192 bytes as JSON',
      ],
      [
        JSON.stringify({ sender: 's'.repeat(129), message: 'hi' }),
        'application/json',
        400,
        'sender: sender must be at most 128 characters',
      ],
    ];
    for (const [body, type, status, error] of cases) {
      const response = await post(body, type);
      expect({ status: response.status, body: response.body }).toEqual({ status, body: { error } });
    }
    const badPath = await rt.http.handle({
      method: 'GET',
      path: '/conversations/%E0%A4%A/tracker',
      headers: {},
    });
    expect(badPath).toEqual({
      status: 400,
      body: { error: 'the sender id in the path is not valid percent-encoding' },
    });
    expect(await rt.scanTable()).toBe(before);
    const receive = await suite.emulators.sqs.send(
      new (await import('@aws-sdk/client-sqs')).ReceiveMessageCommand({
        QueueUrl: rt.jobsQueueUrl,
        WaitTimeSeconds: 0,
      }),
    );
    expect(receive.Messages ?? []).toEqual([]);
  });
});
