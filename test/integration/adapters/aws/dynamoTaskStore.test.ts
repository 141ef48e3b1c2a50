import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushTargetOf, withTarget } from '../../../../src/a2aServer/pushTargets.js';
import { changeTask } from '../../../../src/a2aServer/tasks.js';
import { DynamoTaskStore } from '../../../../src/adapters/aws/dynamoTaskStore.js';
import { taskRecord } from '../../../helpers/a2aRecords.js';
import { type Emulators, startEmulators } from '../../../helpers/emulators.js';

const conversation = 'a2a:ctx-store';

const newRecord = (id: string) => taskRecord(id, { context_id: 'ctx-store' });

describe('DynamoTaskStore', () => {
  let emulators: Emulators;
  let now = 1_000_000;
  let store: DynamoTaskStore;

  beforeAll(async () => {
    emulators = await startEmulators();
    store = new DynamoTaskStore({
      client: emulators.documents,
      tableName: emulators.tableName,
      ttlSeconds: 3600,
      now: () => now,
    });
  }, 30_000);
  afterAll(async () => {
    await emulators?.close();
  });

  it('writes a task only on the version it read, so racing changes are all kept', async () => {
    const id = 'race~ctx-store';
    expect(await store.save(conversation, newRecord(id))).toBe(true);
    expect(await store.save(conversation, newRecord(id))).toBe(false);
    const append = (text: string) =>
      changeTask(store, conversation, id, (r) => ({
        ...r,
        version: r.version + 1,
        history: [...r.history, { text }],
      }));
    await Promise.all(['a', 'b', 'c', 'd'].map(append));
    const stored = await store.load(conversation, id);
    expect(stored?.version).toBe(5);
    expect(stored?.history.map((m) => m.text).sort()).toEqual(['a', 'b', 'c', 'd']);
  });

  it('lets one turn claim a message until the claim expires', async () => {
    expect(await store.claimMessage('caller\nm-1', 'task/turn-1', now + 1000)).toBeUndefined();
    expect(await store.claimMessage('caller\nm-1', 'task/turn-2', now + 1000)).toBe('task/turn-1');
    expect(await store.claimMessage('other\nm-1', 'task/turn-3', now + 1000)).toBeUndefined();
    now += 1001;
    expect(await store.claimMessage('caller\nm-1', 'task/turn-4', now + 1000)).toBeUndefined();
  });

  it('gives a claim back only for the turn that holds it', async () => {
    expect(await store.claimMessage('caller\nm-2', 'task/turn-1', now + 1000)).toBeUndefined();
    await store.releaseMessage('caller\nm-2', 'task/turn-9');
    expect(await store.claimMessage('caller\nm-2', 'task/turn-2', now + 1000)).toBe('task/turn-1');
    await store.releaseMessage('caller\nm-2', 'task/turn-1');
    expect(await store.claimMessage('caller\nm-2', 'task/turn-3', now + 1000)).toBeUndefined();
  });

  it('opens a context once, and hands out context slots in turn, naming who held each', async () => {
    expect(await store.openContext('a2a:one')).toBe(true);
    expect(await store.openContext('a2a:one')).toBe(false);
    expect(await store.takeContextSlot(2, 'a2a:one')).toBeUndefined();
    expect(await store.takeContextSlot(2, 'a2a:two')).toBeUndefined();
    expect(await store.takeContextSlot(2, 'a2a:three')).toBe('a2a:one');
    await store.closeContext('a2a:one');
    expect(await store.openContext('a2a:one')).toBe(true);
  });

  it('keeps a push config’s token and credentials out of the table in the clear', async () => {
    const id = 'sealed~ctx-store';
    const target = await pushTargetOf(
      { pushEnabled: true, pushKey: async () => 'push-key-of-the-test' },
      {
        tenant: '',
        id: 'p',
        taskId: id,
        url: 'https://receiver.example/push',
        token: 'plain-token-4711',
        authentication: { scheme: 'Bearer', credentials: 'plain-credentials-0815' },
      },
      '1.0',
      -1,
    );
    await store.save(conversation, withTarget({ ...newRecord(id), version: 0 }, target));
    const items = await emulators.documents.send(
      new ScanCommand({ TableName: emulators.tableName }),
    );
    const text = JSON.stringify(items.Items);
    expect(text).toContain('https://receiver.example/push');
    expect(text).not.toContain('plain-token-4711');
    expect(text).not.toContain('plain-credentials-0815');
  });
});
