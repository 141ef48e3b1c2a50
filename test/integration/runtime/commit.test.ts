import { describe, expect, it } from 'vitest';
import {
  ConcurrentUpdateError,
  type Job,
  type OutputChannel,
  processJob,
  processJobRetryingRaces,
  RECENT_JOBS,
  type ReplyBatch,
} from '../../../src/runtime/index.js';
import { GREETING_PROJECT } from '../../helpers/project.js';
import { NEVER, rewriteHead, runtimeSuite, storeWith, userMessage } from '../../helpers/runtime.js';

const suite = runtimeSuite(GREETING_PROJECT);

/** A model failure a later try may fix. */
const overloaded = () => Object.assign(new Error('overloaded'), { transient: true });

describe('the commit protocol', () => {
  it('gives every message of a job its own id, derived from the job', async () => {
    const rt = await suite.runtime();
    rt.llm.reply('start flow greet');
    await processJob(userMessage('ids', 'hi'), rt.deps, NEVER);
    const job = userMessage('ids', '/SetSlots(name=Ada)');
    await processJob(job, rt.deps, NEVER);
    const replies = await rt.replies.read('ids', job.turn_id);
    expect(replies.messages.map((m) => [m.id, m.recipient_id, m.message.text])).toEqual([
      [`${job.id}#0`, 'ids', 'Hello Ada!'],
      [`${job.id}#1`, 'ids', 'Can I help you with anything else?'],
    ]);
  });

  it(`remembers the last ${RECENT_JOBS} jobs of a conversation, no more`, async () => {
    const rt = await suite.runtime();
    await processJob(userMessage('recent', '/SetSlots(name=Ada)'), rt.deps, NEVER);
    const old = Array.from({ length: RECENT_JOBS }, (_, i) => `old-${i}`);
    await rewriteHead(rt.store, 'recent', () => ({ recentJobs: old }));
    const job = userMessage('recent', '/SetSlots(name=Bo)');
    await processJob(job, rt.deps, NEVER);
    expect((await rt.store.load('recent'))?.recentJobs).toEqual([...old.slice(1), job.id]);
    expect(await processJob(job, rt.deps, NEVER)).toBe('duplicate');
  });

  it('sends the conversation where the user last wrote', async () => {
    const rt = await suite.runtime();
    const batches: ReplyBatch[] = [];
    const output: OutputChannel = {
      deliver: async (batch) => {
        batches.push(batch);
      },
    };
    const deps = { ...rt.deps, output };
    await processJob(userMessage('moving', '/SetSlots(name=Ada)'), deps, NEVER);
    rt.llm.reply('start flow greet');
    await processJob({ ...userMessage('moving', 'hi'), channel: 'voice' }, deps, NEVER);
    expect((await rt.store.load('moving'))?.channel).toBe('voice');
    expect(batches.map((b) => b.channel)).toEqual(['rest', 'voice']);
  });

  it('passes the metadata of a message to the turn', async () => {
    const rt = await suite.runtime();
    const job = { ...userMessage('meta', '/SetSlots(name=Ada)'), metadata: { locale: 'de' } };
    await processJob(job, rt.deps, NEVER);
    const user = (await rt.store.readEvents('meta')).find((e) => e.event.event === 'user');
    expect(user?.event).toMatchObject({ metadata: { locale: 'de' } });
  });

  it('keeps nothing of a try whose model was unavailable but the retry it queues', async () => {
    const clock = Date.now();
    const rt = await suite.runtime({ now: () => clock });
    rt.llm.reply(overloaded());
    const job = userMessage('unavailable', 'hi');
    expect(await processJob(job, rt.deps, NEVER)).toBe('done');
    const head = await rt.store.load('unavailable');
    expect(head?.version).toBe(1);
    expect(head?.nextSeq).toBe(0);
    expect(head?.runs).toEqual({});
    expect(await rt.store.readEvents('unavailable')).toEqual([]);
    const replies = await rt.replies.read('unavailable', job.turn_id);
    expect(replies).toMatchObject({ messages: [], settled: false });
    expect(await rt.scanTable()).not.toContain('run#');
  });

  it('lets an unavailable model through when the job was told to stop, so the queue runs it again', async () => {
    const rt = await suite.runtime();
    rt.llm.reply(overloaded());
    const stop = new AbortController();
    stop.abort();
    await expect(processJob(userMessage('stopping', 'hi'), rt.deps, stop.signal)).rejects.toThrow(
      'overloaded',
    );
    expect(await rt.store.load('stopping')).toBeUndefined();
  });

  it('lets a failure no later try can fix through without committing', async () => {
    const rt = await suite.runtime();
    const broken = {
      ...rt.deps,
      engine: Object.assign(Object.create(rt.deps.engine), {
        handleMessage: async () => {
          throw new TypeError('engine bug');
        },
      }),
    };
    await expect(processJob(userMessage('bug', 'hi'), broken, NEVER)).rejects.toThrow('engine bug');
    expect(await rt.store.load('bug')).toBeUndefined();
  });

  it('refuses a job of a kind it does not know', async () => {
    const rt = await suite.runtime();
    const strange = { ...userMessage('strange', 'hi'), type: 'telepathy' } as unknown as Job;
    await expect(processJob(strange, rt.deps, NEVER)).rejects.toThrow('unknown job');
  });
});

describe('running a job again after a lost race', () => {
  it('gives up after three tries and lets the last loss through', async () => {
    const rt = await suite.runtime();
    let commits = 0;
    const store = storeWith(rt.store, {
      commit: async (request) => {
        commits += 1;
        throw new ConcurrentUpdateError(request.conversationId, request.expectedVersion);
      },
    });
    await expect(
      processJobRetryingRaces(
        userMessage('losing', '/SetSlots(name=Ada)'),
        { ...rt.deps, store },
        NEVER,
      ),
    ).rejects.toBeInstanceOf(ConcurrentUpdateError);
    expect(commits).toBe(3);
  });

  it('does not run a job again for a failure other than a lost race', async () => {
    const rt = await suite.runtime();
    let commits = 0;
    const store = storeWith(rt.store, {
      commit: async () => {
        commits += 1;
        throw new Error('throttled');
      },
    });
    await expect(
      processJobRetryingRaces(
        userMessage('throttled', '/SetSlots(name=Ada)'),
        { ...rt.deps, store },
        NEVER,
      ),
    ).rejects.toThrow('throttled');
    expect(commits).toBe(1);
  });

  it('commits on the second try after one lost race', async () => {
    const rt = await suite.runtime();
    let commits = 0;
    const store = storeWith(rt.store, {
      commit: async (request) => {
        commits += 1;
        if (commits === 1)
          throw new ConcurrentUpdateError(request.conversationId, request.expectedVersion);
        await rt.store.commit(request);
      },
    });
    const job = userMessage('second', '/SetSlots(name=Ada)');
    expect(await processJobRetryingRaces(job, { ...rt.deps, store }, NEVER)).toBe('done');
    expect(commits).toBe(2);
    expect((await rt.store.load('second'))?.recentJobs).toEqual([job.id]);
  });
});
