import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
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
    const big = 'x'.repeat(300_000);
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
