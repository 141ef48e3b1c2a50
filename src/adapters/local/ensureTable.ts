import {
  CreateTableCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  ResourceInUseException,
  ResourceNotFoundException,
} from '@aws-sdk/client-dynamodb';
import { sleep } from '../../resilience/index.js';

const WAIT_LIMIT_MS = 30_000;

/** Creates the conversation table (`pk`/`sk` strings, on demand) if missing; waits until active. */
export async function ensureTable(client: DynamoDBClient, tableName: string): Promise<void> {
  if ((await tableStatus(client, tableName)) === undefined) {
    try {
      await client.send(
        new CreateTableCommand({
          TableName: tableName,
          AttributeDefinitions: [
            { AttributeName: 'pk', AttributeType: 'S' },
            { AttributeName: 'sk', AttributeType: 'S' },
          ],
          KeySchema: [
            { AttributeName: 'pk', KeyType: 'HASH' },
            { AttributeName: 'sk', KeyType: 'RANGE' },
          ],
          BillingMode: 'PAY_PER_REQUEST',
        }),
      );
    } catch (error) {
      // Another process created it first.
      if (!(error instanceof ResourceInUseException)) throw error;
    }
  }
  const deadline = Date.now() + WAIT_LIMIT_MS;
  while ((await tableStatus(client, tableName)) !== 'ACTIVE') {
    if (Date.now() > deadline) throw new Error(`table ${tableName} did not become active`);
    await sleep(50);
  }
}

async function tableStatus(client: DynamoDBClient, tableName: string): Promise<string | undefined> {
  try {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    return Table?.TableStatus ?? 'UNKNOWN';
  } catch (error) {
    if (error instanceof ResourceNotFoundException) return undefined;
    throw error;
  }
}
