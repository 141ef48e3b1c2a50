import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import {
  ensureQueues,
  ensureTable,
  localAwsConfig,
  startDynalite,
  startFauxqs,
} from '../../../../src/adapters/local/emulators.js';

describe('startDynalite', () => {
  it('keeps items across restarts when given a path', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dynalite-'));
    try {
      const key = { pk: 'conv#1', sk: 'head' };
      const first = await startDynalite({ path: dir });
      const client = new DynamoDBClient(localAwsConfig(first.endpoint));
      await ensureTable(client, 'conversations');
      await ensureTable(client, 'conversations');
      await DynamoDBDocumentClient.from(client).send(
        new PutCommand({ TableName: 'conversations', Item: { ...key, version: 3 } }),
      );
      client.destroy();
      await first.close();

      const second = await startDynalite({ path: dir });
      const again = new DynamoDBClient(localAwsConfig(second.endpoint));
      await ensureTable(again, 'conversations');
      const { Item } = await DynamoDBDocumentClient.from(again).send(
        new GetCommand({ TableName: 'conversations', Key: key }),
      );
      again.destroy();
      await second.close();

      expect(second.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(Item?.version).toBe(3);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('startFauxqs', () => {
  it('creates the job queues and their dead-letter queues idempotently', async () => {
    const fauxqs = await startFauxqs();
    const client = new SQSClient(localAwsConfig(fauxqs.endpoint));
    try {
      const first = await ensureQueues(client, { prefix: 'app' });
      const second = await ensureQueues(client, { prefix: 'app' });

      expect(second).toEqual(first);
      expect(fauxqs.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(first.jobsQueueUrl).toMatch(/\/app-jobs\.fifo$/);
      expect(first.jobsDlqUrl).toMatch(/\/app-jobs-dlq\.fifo$/);
      expect(first.delayQueueUrl).toMatch(/\/app-delayed$/);
      expect(first.delayDlqUrl).toMatch(/\/app-delayed-dlq$/);
    } finally {
      client.destroy();
      await fauxqs.close();
    }
  });
});
