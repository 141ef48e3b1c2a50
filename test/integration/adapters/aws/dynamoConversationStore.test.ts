import { randomBytes, randomUUID } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoConversationStore } from '../../../../src/adapters/aws/dynamoConversationStore.js';
import { StoredDataError } from '../../../../src/adapters/aws/storeErrors.js';
import type { StoreMeter } from '../../../../src/adapters/aws/storeMeter.js';
import { initialState } from '../../../../src/dialogue/index.js';
import type { Outbox, SequencedEvent } from '../../../../src/runtime/outbox.js';
import {
  type CommitRequest,
  ConcurrentUpdateError,
  type ConversationHead,
} from '../../../../src/runtime/ports.js';
import { type Emulators, startEmulators } from '../../../helpers/emulators.js';

const NOW = Date.parse('2030-01-01T00:00:00Z');
const DAY = 86_400;

let aws: Emulators;
beforeAll(async () => {
  aws = await startEmulators();
});
afterAll(async () => {
  await aws.close();
});

function storeAt(now: number, meter?: StoreMeter): DynamoConversationStore {
  return new DynamoConversationStore({
    client: aws.documents,
    tableName: aws.tableName,
    ttlSeconds: DAY,
    now: () => now,
    ...(meter ? { meter } : {}),
  });
}

function userEvent(seq: number, text: string): SequencedEvent {
  return { seq, event: { event: 'user', text, timestamp: NOW / 1000 } };
}

function outboxFor(version: number, jobId: string, events: SequencedEvent[]): Outbox {
  return {
    job_id: jobId,
    turn_id: 'turn-1',
    channel: 'rest',
    version,
    events,
    messages: [{ id: `${jobId}-m0`, recipient_id: 'u', message: { text: `reply ${version}` } }],
    settled: true,
    settle_turns: [],
    jobs: [],
  };
}

/** The commit a job makes on top of `previous` (undefined for a new conversation). */
function commitAfter(
  conversationId: string,
  previous: ConversationHead | undefined,
  jobId: string,
  slotValue: string,
  runs: CommitRequest['runs'] = [],
): CommitRequest {
  const version = (previous?.version ?? 0) + 1;
  const nextSeq = previous?.nextSeq ?? 0;
  const state = previous?.state ?? initialState(conversationId, {});
  const events = [userEvent(nextSeq, slotValue)];
  return {
    conversationId,
    expectedVersion: previous?.version ?? 0,
    runs,
    head: {
      version,
      state: { ...state, slots: { ...state.slots, city: slotValue } },
      outbox: outboxFor(version, jobId, events),
      recentJobs: [...(previous?.recentJobs ?? []), jobId],
      nextSeq: nextSeq + events.length,
      runs: Object.fromEntries(runs.map((run) => [run.runId, run.jobId])),
      channel: 'rest',
    },
  };
}

const newId = () => `c-${randomUUID()}`;

describe('DynamoConversationStore', () => {
  it('loads what it committed', async () => {
    const store = storeAt(NOW);
    const id = newId();
    const request = commitAfter(id, undefined, 'job-1', 'Paris');

    await store.commit(request);

    expect(await store.load(id)).toEqual(request.head);
  });

  it('returns undefined for a conversation never committed', async () => {
    expect(await storeAt(NOW).load(newId())).toBeUndefined();
  });

  it('refuses a commit on a stale version and shows nothing of the losing job', async () => {
    const store = storeAt(NOW);
    const id = newId();
    await store.commit(commitAfter(id, undefined, 'job-1', 'Paris'));
    const loaded = await store.load(id);
    await store.commit(commitAfter(id, loaded, 'job-2', 'Rome'));

    const losing = commitAfter(id, loaded, 'job-3', 'Oslo', [
      { runId: 'r1', jobId: 'job-3', agentId: 'a', data: { step: 1 } },
    ]);
    const error = await store.commit(losing).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ConcurrentUpdateError);
    expect((error as ConcurrentUpdateError).expectedVersion).toBe(1);
    expect((error as Error).cause).toMatchObject({ name: 'ConditionalCheckFailedException' });
    const head = await store.load(id);
    expect(head?.version).toBe(2);
    expect(head?.state.slots.city).toBe('Rome');
    expect(head?.recentJobs).not.toContain('job-3');
    expect(head?.runs).toEqual({});
    expect(head?.outbox?.job_id).toBe('job-2');
  });

  it('lets only the first of two new-conversation commits win', async () => {
    const store = storeAt(NOW);
    const id = newId();
    await store.commit(commitAfter(id, undefined, 'job-1', 'Paris'));

    await expect(store.commit(commitAfter(id, undefined, 'job-2', 'Rome'))).rejects.toBeInstanceOf(
      ConcurrentUpdateError,
    );
    expect((await store.load(id))?.state.slots.city).toBe('Paris');
  });

  it('keeps events idempotent per version and reads them in order across versions', async () => {
    const store = storeAt(NOW);
    const id = newId();
    let head: ConversationHead | undefined;
    for (const [index, city] of ['a', 'b', 'c'].entries()) {
      await store.commit(commitAfter(id, head, `job-${index}`, city));
      head = await store.load(id);
    }
    // Written out of order, and version 2 twice.
    await store.appendEvents(id, 2, [userEvent(1, 'b'), userEvent(2, 'b2')]);
    await store.appendEvents(id, 3, [userEvent(3, 'c')]);
    await store.appendEvents(id, 1, [userEvent(0, 'a')]);
    await store.appendEvents(id, 2, [userEvent(1, 'b'), userEvent(2, 'b2')]);

    const events = await store.readEvents(id);

    expect(events.map((e) => e.seq)).toEqual([0, 1, 2, 3]);
  });

  it('reads no events of versions beyond the head', async () => {
    const store = storeAt(NOW);
    const id = newId();
    await store.commit(commitAfter(id, undefined, 'job-1', 'a'));
    await store.appendEvents(id, 1, [userEvent(0, 'a')]);
    // A worker died after writing events for a version whose head commit lost.
    await store.appendEvents(id, 2, [userEvent(1, 'lost')]);

    expect((await store.readEvents(id)).map((e) => e.seq)).toEqual([0]);
  });

  it('reads events across several query pages', async () => {
    const store = storeAt(NOW);
    const id = newId();
    let head: ConversationHead | undefined;
    // Random text: items are stored deflated, and text that repeats would shrink to nothing.
    const big = randomBytes(225_000).toString('base64');
    for (let version = 1; version <= 5; version += 1) {
      await store.commit(commitAfter(id, head, `job-${version}`, 'v'));
      head = await store.load(id);
      await store.appendEvents(id, version, [userEvent(version - 1, big)]);
    }
    const meter = { reads: 0, writes: 0, bytesRead: 0, bytesWritten: 0 };

    const events = await storeAt(NOW, meter).readEvents(id);

    expect(events.map((e) => e.seq)).toEqual([0, 1, 2, 3, 4]);
    // One head read plus more than one page: query responses stop at 1 MB.
    expect(meter.reads).toBeGreaterThan(2);
  });

  it('keeps a later outbox when an earlier one is cleared late', async () => {
    const store = storeAt(NOW);
    const id = newId();
    await store.commit(commitAfter(id, undefined, 'job-1', 'a'));
    await store.commit(commitAfter(id, await store.load(id), 'job-2', 'b'));

    await store.clearOutbox(id, 1);
    expect((await store.load(id))?.outbox?.job_id).toBe('job-2');

    await store.clearOutbox(id, 2);
    expect((await store.load(id))?.outbox).toBeUndefined();
  });

  it('keeps run records of two attempts of a step apart', async () => {
    const store = storeAt(NOW);
    const id = newId();
    await store.commit(
      commitAfter(id, undefined, 'job-1', 'a', [
        { runId: 'run-1', jobId: 'job-1', agentId: 'agent', data: { attempt: 1 } },
      ]),
    );
    // A second attempt of the next step loses the race after writing its record.
    const head = await store.load(id);
    await store.commit(
      commitAfter(id, head, 'job-2', 'b', [
        { runId: 'run-1', jobId: 'job-2', agentId: 'agent', data: { attempt: 2 } },
      ]),
    );
    await expect(
      store.commit(
        commitAfter(id, head, 'job-2b', 'c', [
          { runId: 'run-1', jobId: 'job-2b', agentId: 'agent', data: { attempt: 3 } },
        ]),
      ),
    ).rejects.toBeInstanceOf(ConcurrentUpdateError);

    const latest = await store.load(id);
    expect(latest?.runs).toEqual({ 'run-1': 'job-2' });
    expect((await store.loadRun(id, 'run-1', 'job-1'))?.data).toEqual({ attempt: 1 });
    expect(await store.loadRun(id, 'run-1', 'job-2')).toEqual({
      runId: 'run-1',
      jobId: 'job-2',
      agentId: 'agent',
      data: { attempt: 2 },
    });
    expect(await store.loadRun(id, 'run-1', 'missing')).toBeUndefined();
  });

  it('costs one read per load and runs + 1 writes per commit however long the conversation', async () => {
    const meter = { reads: 0, writes: 0, bytesRead: 0, bytesWritten: 0 };
    const store = storeAt(NOW, meter);
    const id = newId();
    const costs: { reads: number; writes: number; bytesWritten: number }[] = [];
    let head: ConversationHead | undefined;
    for (let job = 1; job <= 80; job += 1) {
      const before = { ...meter };
      head = await store.load(id);
      await store.commit(
        commitAfter(id, head, `job-${job}`, 'v', [
          { runId: 'r', jobId: `job-${job}`, agentId: 'a', data: { n: 1 } },
        ]),
      );
      costs.push({
        reads: meter.reads - before.reads,
        writes: meter.writes - before.writes,
        bytesWritten: meter.bytesWritten - before.bytesWritten,
      });
    }

    expect(new Set(costs.map((c) => `${c.reads}/${c.writes}`))).toEqual(new Set(['1/2']));
    // recent_jobs is capped at 50, so the head stops growing.
    const late = costs.slice(60).map((c) => c.bytesWritten);
    expect(Math.max(...late) - Math.min(...late)).toBeLessThan(8);
    expect((await store.load(id))?.recentJobs).toHaveLength(50);
  });

  it('ignores expired items and lets a new conversation replace an expired head', async () => {
    const id = newId();
    const early = storeAt(NOW);
    await early.commit(
      commitAfter(id, undefined, 'job-1', 'old', [
        { runId: 'r', jobId: 'job-1', agentId: 'a', data: {} },
      ]),
    );
    await early.appendEvents(id, 1, [userEvent(0, 'old')]);
    const late = storeAt(NOW + (DAY + 1) * 1000);

    expect(await late.load(id)).toBeUndefined();
    expect(await late.loadRun(id, 'r', 'job-1')).toBeUndefined();
    expect(await late.readEvents(id)).toEqual([]);

    await late.commit(commitAfter(id, undefined, 'job-new', 'new'));
    expect((await late.load(id))?.state.slots.city).toBe('new');
  });

  it('refreshes the expiry on every write', async () => {
    const id = newId();
    await storeAt(NOW).commit(commitAfter(id, undefined, 'job-1', 'a'));
    const later = NOW + 3_600_000;
    await storeAt(later).commit(commitAfter(id, await storeAt(later).load(id), 'job-2', 'b'));

    const { Item } = await aws.documents.send(
      new GetCommand({ TableName: aws.tableName, Key: { pk: `conv#${id}`, sk: 'head' } }),
    );
    expect(Item?.ttl).toBe(later / 1000 + DAY);
  });

  it('names the conversation when a stored head is invalid', async () => {
    const id = newId();
    await aws.documents.send(
      new PutCommand({
        TableName: aws.tableName,
        Item: {
          pk: `conv#${id}`,
          sk: 'head',
          version: 1,
          state: '{"version":99}',
          recent_jobs: [],
          next_seq: 0,
          runs: {},
        },
      }),
    );

    const error = await storeAt(NOW)
      .load(id)
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(StoredDataError);
    expect((error as Error).message).toContain(id);
    expect((error as Error).message).toContain('version 99 is not supported');
  });
});

/** The JSON text a packed attribute holds. */
function decoded(value: unknown): string {
  return inflateRawSync(value as Uint8Array).toString('utf8');
}

/** Every item of a conversation as stored, expired or not. */
async function rawItems(conversationId: string): Promise<Record<string, unknown>[]> {
  const { Items } = await aws.documents.send(
    new QueryCommand({
      TableName: aws.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': `conv#${conversationId}` },
      ConsistentRead: true,
    }),
  );
  return Items ?? [];
}

/** The items the head points to whose ttl is earlier than the head's. */
async function itemsExpiringBeforeHead(conversationId: string): Promise<string[]> {
  const items = await rawItems(conversationId);
  const head = items.find((item) => item.sk === 'head');
  const headTtl = Number(head?.ttl);
  const version = Number(head?.version);
  const pointed = Object.entries((head?.runs ?? {}) as Record<string, string>).map(
    ([run, job]) => `run#${run}#${job}`,
  );
  return items
    .filter((item) => {
      const sk = String(item.sk);
      const isEvent = sk.startsWith('evt#') && Number(sk.slice(4)) <= version;
      return (isEvent || pointed.includes(sk)) && Number(item.ttl) < headTtl;
    })
    .map((item) => `${String(item.sk)} ttl ${String(item.ttl)} < head ${headTtl}`);
}

describe('DynamoConversationStore expiry', () => {
  const meterOf = (): StoreMeter => ({ reads: 0, writes: 0, bytesRead: 0, bytesWritten: 0 });

  function storeWithClock(clock: { now: number }, meter?: StoreMeter): DynamoConversationStore {
    return new DynamoConversationStore({
      client: aws.documents,
      tableName: aws.tableName,
      ttlSeconds: DAY,
      now: () => clock.now,
      ...(meter ? { meter } : {}),
    });
  }

  /** One job: load, commit (keeping the run pointer), deliver the events. */
  async function job(store: DynamoConversationStore, id: string, n: number): Promise<void> {
    const previous = await store.load(id);
    const run = { runId: 'r', jobId: 'job-1', agentId: 'a', data: { step: 1 } };
    const request = commitAfter(id, previous, `job-${n}`, `v${n}`, n === 1 ? [run] : []);
    await store.commit({ ...request, head: { ...request.head, runs: { r: 'job-1' } } });
    await store.appendEvents(id, request.head.version, request.head.outbox?.events ?? []);
  }

  it('keeps every event and the pointed-to run record alive as long as the head, over three ttls', async () => {
    const id = newId();
    const clock = { now: NOW };
    const meter = meterOf();
    const store = storeWithClock(clock, meter);
    const commitWrites: number[] = [];
    // Twenty commits a ttl, each checked: a refresh pass spans several commits while new events
    // are written, as at any rate, since a pass's length and the commits between passes both
    // grow with the rate. (360 jobs, every fourth checked, outlasted the test's time on a busy
    // machine.)
    const jobs = 60;
    for (let n = 1; n <= jobs; n += 1) {
      clock.now = NOW + n * ((3 * DAY) / jobs) * 1000;
      const before = meter.writes;
      await job(store, id, n);
      // The delivery's event item is the job's last write.
      commitWrites.push(meter.writes - before - 1);
      expect(await itemsExpiringBeforeHead(id)).toEqual([]);
    }

    const events = await storeWithClock(clock).readEvents(id);
    expect(events.map((e) => e.seq)).toEqual(Array.from({ length: jobs }, (_, i) => i));
    expect((await store.loadRun(id, 'r', 'job-1'))?.data).toEqual({ step: 1 });
    // Head, run refresh and a bounded batch of event refreshes; most commits refresh no event.
    expect(Math.max(...commitWrites)).toBeLessThanOrEqual(2 + 10);
    const total = commitWrites.reduce((a, b) => a + b, 0);
    expect(total / jobs).toBeLessThan(5);
  });

  it('loads a head stored without expiry bookkeeping and brings its items up to the head', async () => {
    const id = newId();
    const clock = { now: NOW };
    const store = storeWithClock(clock);
    await job(store, id, 1);
    // What an older build stored: no bookkeeping on the head, items expiring with it.
    for (const item of await rawItems(id)) {
      const { born, evt_floor, evt_cursor, evt_pass_ttl, run_ttls, ...old } = item;
      await aws.documents.send(
        new PutCommand({ TableName: aws.tableName, Item: { ...old, ttl: NOW / 1000 + DAY } }),
      );
    }

    clock.now = NOW + 3_600_000;
    const fresh = storeWithClock(clock);
    expect((await fresh.load(id))?.version).toBe(1);
    await job(fresh, id, 2);

    expect(await itemsExpiringBeforeHead(id)).toEqual([]);
    expect((await fresh.readEvents(id)).map((e) => e.seq)).toEqual([0, 1]);
  });

  it('stores the head, run records and events deflated, and reads items stored as JSON text before', async () => {
    const id = newId();
    const store = storeAt(NOW);
    const run = {
      runId: 'run-1',
      jobId: 'job-1',
      agentId: 'agent',
      data: { notes: 'n'.repeat(5_000) },
    };
    const request = commitAfter(id, undefined, 'job-1', 'a', [run]);
    await store.commit(request);
    await store.appendEvents(id, 1, [userEvent(0, 'e'.repeat(5_000))]);

    const stored = await rawItems(id);
    expect(stored).toHaveLength(3);
    for (const item of stored) {
      expect(item.packing).toBe(1);
      const large = item.state ?? item.data ?? item.events;
      expect(large).toBeInstanceOf(Uint8Array);
      // Text that repeats shrinks far below a write unit.
      expect((large as Uint8Array).byteLength).toBeLessThan(1024);
    }

    // The same items as a build before packing wrote them: JSON text, no packing.
    for (const item of stored) {
      const { packing, ...old } = item;
      const text = (value: unknown) => (value === undefined ? undefined : decoded(value));
      await aws.documents.send(
        new PutCommand({
          TableName: aws.tableName,
          Item: Object.fromEntries(
            Object.entries({
              ...old,
              state: text(item.state),
              outbox: text(item.outbox),
              data: text(item.data),
              events: text(item.events),
            }).filter(([, value]) => value !== undefined),
          ),
        }),
      );
    }
    const fresh = storeAt(NOW);
    expect(await fresh.load(id)).toEqual(request.head);
    expect(await fresh.loadRun(id, 'run-1', 'job-1')).toEqual(run);
    expect((await fresh.readEvents(id)).map((e) => e.seq)).toEqual([0]);
  });

  it('refuses an item packed in a way it does not know, naming the conversation', async () => {
    const id = newId();
    await storeAt(NOW).commit(commitAfter(id, undefined, 'job-1', 'a'));
    const [head] = await rawItems(id);
    await aws.documents.send(
      new PutCommand({ TableName: aws.tableName, Item: { ...head, packing: 2 } }),
    );
    const { packing, ...unmarked } = head ?? {};
    const other = newId();
    await aws.documents.send(
      new PutCommand({ TableName: aws.tableName, Item: { ...unmarked, pk: `conv#${other}` } }),
    );

    for (const conversation of [id, other]) {
      const error = await storeAt(NOW)
        .load(conversation)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StoredDataError);
      expect((error as Error).message).toContain(conversation);
    }
  });

  it('shows a new conversation none of the events of an expired one under the same sender', async () => {
    const id = newId();
    const clock = { now: NOW };
    const store = storeWithClock(clock);
    await job(store, id, 1);
    await job(store, id, 2);

    clock.now = NOW + (DAY + 1) * 1000;
    await store.commit(commitAfter(id, undefined, 'job-new', 'new'));

    expect(await store.readEvents(id)).toEqual([]);
    await store.appendEvents(id, 1, [userEvent(0, 'new')]);
    expect((await store.readEvents(id)).map((e) => e.event)).toEqual([userEvent(0, 'new').event]);
  });
});

describe('DynamoConversationStore event pages', () => {
  /** 60 versions: every third one without events, the others with two. */
  async function longConversation(): Promise<{ id: string; seqs: number[] }> {
    const id = newId();
    const store = storeAt(NOW);
    let head: ConversationHead | undefined;
    const seqs: number[] = [];
    for (let version = 1; version <= 60; version += 1) {
      const request = commitAfter(id, head, `job-${version}`, 'v');
      const nextSeq = head?.nextSeq ?? 0;
      const events =
        version % 3 === 0 ? [] : [userEvent(nextSeq, 'a'), userEvent(nextSeq + 1, 'b')];
      const outbox = request.head.outbox ? { ...request.head.outbox, events } : undefined;
      await store.commit({
        ...request,
        head: { ...request.head, outbox, nextSeq: nextSeq + events.length },
      });
      await store.appendEvents(id, version, events);
      seqs.push(...events.map((e) => e.seq));
      head = await store.load(id);
    }
    return { id, seqs };
  }

  it('reads the events after a sequence number, at most a limit, from the versions it needs', async () => {
    const { id, seqs } = await longConversation();
    const meter = { reads: 0, writes: 0, bytesRead: 0, bytesWritten: 0 };

    const page = await storeAt(NOW, meter).readEventPage(id, { after: 40, limit: 5 });

    expect(page.events.map((e) => e.seq)).toEqual([41, 42, 43, 44, 45]);
    expect(page.more).toBe(true);
    const all = { reads: 0, writes: 0, bytesRead: 0, bytesWritten: 0 };
    expect((await storeAt(NOW, all).readEvents(id)).map((e) => e.seq)).toEqual(seqs);
    expect(meter.bytesRead).toBeLessThan(all.bytesRead / 2);
  });

  it('pages through the whole log without a gap or a repeat', async () => {
    const { id, seqs } = await longConversation();
    const store = storeAt(NOW);
    const read: number[] = [];
    let after: number | undefined;
    for (let pages = 0; pages < 100; pages += 1) {
      const page = await store.readEventPage(id, {
        ...(after === undefined ? {} : { after }),
        limit: 7,
      });
      read.push(...page.events.map((e) => e.seq));
      after = page.events.at(-1)?.seq;
      if (!page.more) break;
    }

    expect(read).toEqual(seqs);
  });

  it('reads nothing beyond the last event and nothing of an unknown conversation', async () => {
    const { id, seqs } = await longConversation();
    const meter = { reads: 0, writes: 0, bytesRead: 0, bytesWritten: 0 };
    const store = storeAt(NOW, meter);

    expect(await store.readEventPage(id, { after: seqs.at(-1) ?? 0 })).toEqual({
      events: [],
      more: false,
    });
    // Only the head was read: nothing lies after its last event.
    expect(meter.reads).toBe(1);
    expect(await store.readEventPage(id, { after: (seqs.at(-1) ?? 0) - 1, limit: 1 })).toEqual({
      events: [userEvent(seqs.at(-1) ?? 0, 'b')],
      more: false,
    });
    expect(await store.readEventPage(newId(), { limit: 3 })).toEqual({ events: [], more: false });
  });
});

describe('DynamoConversationStore failures', () => {
  const missingTable = () =>
    new DynamoConversationStore({
      client: aws.documents,
      tableName: `${aws.tableName}-missing`,
      ttlSeconds: DAY,
      now: () => NOW,
    });

  it('refuses a head whose version does not follow the one loaded, and writes nothing', async () => {
    const store = storeAt(NOW);
    const id = `skip-${randomUUID()}`;
    const request = commitAfter(id, undefined, 'job-1', 'a');

    await expect(
      store.commit({ ...request, head: { ...request.head, version: 2 } }),
    ).rejects.toThrow(new RangeError(`commit of ${id}: head version 2 does not follow 0`));
    expect(await store.load(id)).toBeUndefined();
  });

  it('passes on a failure other than a lost race, from commits and cleared outboxes alike', async () => {
    const store = missingTable();
    const id = `missing-${randomUUID()}`;

    const commit = await store.commit(commitAfter(id, undefined, 'job-1', 'a')).catch((e) => e);
    const clear = await store.clearOutbox(id, 1).catch((e: unknown) => e);

    for (const error of [commit, clear]) {
      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(ConcurrentUpdateError);
      expect((error as Error).name).toBe('ResourceNotFoundException');
    }
  });

  it('counts a cleared outbox as one write and an appended version as one write of its bytes', async () => {
    const meter = { reads: 0, writes: 0, bytesRead: 0, bytesWritten: 0 };
    const store = storeAt(NOW, meter);
    const id = `meter-${randomUUID()}`;
    await store.commit(commitAfter(id, undefined, 'job-1', 'a'));
    const before = { ...meter };

    await store.clearOutbox(id, 1);
    await store.appendEvents(id, 1, [userEvent(0, 'a')]);
    await store.load(id);

    expect(meter.writes - before.writes).toBe(2);
    expect(meter.bytesWritten - before.bytesWritten).toBeGreaterThan(0);
    expect(meter.reads - before.reads).toBe(1);
    expect(meter.bytesRead - before.bytesRead).toBeGreaterThan(0);
  });
});
