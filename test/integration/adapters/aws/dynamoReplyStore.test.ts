import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoReplyStore } from '../../../../src/adapters/aws/dynamoReplyStore.js';
import type { ReplyBatch } from '../../../../src/runtime/ports.js';
import { type Emulators, startEmulators } from '../../../helpers/emulators.js';

const NOW = Date.parse('2030-01-01T00:00:00Z');

let aws: Emulators;
beforeAll(async () => {
  aws = await startEmulators();
});
afterAll(async () => {
  await aws.close();
});

const storeAt = (now: number) =>
  new DynamoReplyStore({
    client: aws.documents,
    tableName: aws.tableName,
    ttlSeconds: 600,
    now: () => now,
  });

function batch(
  conversationId: string,
  turnId: string,
  version: number,
  settled: boolean,
): ReplyBatch {
  return {
    conversationId,
    turnId,
    jobId: `job-${version}`,
    version,
    channel: 'rest',
    settled,
    messages: [
      { id: `${version}-a`, recipient_id: 'u', message: { text: `v${version} a` } },
      { id: `${version}-b`, recipient_id: 'u', message: { text: `v${version} b` } },
    ],
  };
}

describe('DynamoReplyStore', () => {
  it('reads a turn’s messages in version order, once each, settled by any batch', async () => {
    const store = storeAt(NOW);
    const id = `c-${randomUUID()}`;
    await store.deliver(batch(id, 't1', 10, true));
    await store.deliver(batch(id, 't1', 9, false));
    await store.deliver(batch(id, 't1', 9, false));

    const reply = await store.read(id, 't1');

    expect(reply.messages.map((m) => m.message.text)).toEqual(['v9 a', 'v9 b', 'v10 a', 'v10 b']);
    expect(reply.settled).toBe(true);
  });

  it('is unsettled while no batch of the turn settled it', async () => {
    const store = storeAt(NOW);
    const id = `c-${randomUUID()}`;
    await store.deliver(batch(id, 't1', 1, false));

    expect((await store.read(id, 't1')).settled).toBe(false);
    expect(await store.read(id, 'other')).toEqual({ messages: [], settled: false });
  });

  it('keeps turns whose ids share a prefix apart', async () => {
    const store = storeAt(NOW);
    const id = `c-${randomUUID()}`;
    await store.deliver(batch(id, 't', 1, false));
    await store.deliver(batch(id, 't#2', 2, true));

    const reply = await store.read(id, 't');

    expect(reply.messages.map((m) => m.id)).toEqual(['1-a', '1-b']);
    expect(reply.settled).toBe(false);
  });

  it('ignores expired replies', async () => {
    const id = `c-${randomUUID()}`;
    await storeAt(NOW).deliver(batch(id, 't1', 1, true));

    expect(await storeAt(NOW + 601_000).read(id, 't1')).toEqual({ messages: [], settled: false });
  });
});
