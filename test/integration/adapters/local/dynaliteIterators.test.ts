import {
  DynamoDBClient,
  PutItemCommand,
  QueryCommand,
  ScanCommand,
} from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { dynaliteIterators } from '../../../../src/adapters/local/dynaliteIterators.js';
import {
  ensureTable,
  localAwsConfig,
  startDynalite,
} from '../../../../src/adapters/local/emulators.js';
import { tempDir } from '../../../helpers/tempDirs.js';

describe('dynalite as the local stack starts it', () => {
  for (const mode of ['on a LevelDB folder', 'in memory'] as const) {
    it(`closes the iterator of every read ${mode}, a Query that stops at its Limit too`, async () => {
      const dynamo = await startDynalite(
        mode === 'in memory' ? {} : { path: await tempDir('switchboard-dynalite-') },
      );
      const client = new DynamoDBClient(localAwsConfig(dynamo.endpoint));
      try {
        await ensureTable(client, 'reads');
        const before = dynaliteIterators();
        const pk = { S: 'conv#ada' };
        for (let n = 0; n < 20; n++) {
          const sk = { S: `evt#${String(n).padStart(4, '0')}` };
          await client.send(new PutItemCommand({ TableName: 'reads', Item: { pk, sk } }));
        }
        const query = (limit?: number) =>
          client.send(
            new QueryCommand({
              TableName: 'reads',
              KeyConditionExpression: 'pk = :pk',
              ExpressionAttributeValues: { ':pk': pk },
              ScanIndexForward: false,
              ...(limit === undefined ? {} : { Limit: limit }),
            }),
          );
        for (let n = 0; n < 10; n++) {
          const newest = await query(1);
          expect(newest.Items?.map((item) => item.sk?.S)).toEqual(['evt#0019']);
          expect(newest.LastEvaluatedKey?.sk?.S).toBe('evt#0019');
        }
        expect((await query()).Count).toBe(20);
        expect((await client.send(new ScanCommand({ TableName: 'reads' }))).Count).toBe(20);
        const after = dynaliteIterators();
        // Twelve reads: every one went through a stream that closes its iterator.
        expect(after.opened - before.opened).toBeGreaterThanOrEqual(12);
        expect(after.open).toBe(before.open);
      } finally {
        client.destroy();
        await dynamo.close();
      }
    });
  }
});
