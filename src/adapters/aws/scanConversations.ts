import { type DynamoDBDocumentClient, paginateScan } from '@aws-sdk/lib-dynamodb';
import { HEAD_KEY } from './dynamoKeys.js';

/**
 * The ids of every conversation in the table (a full scan: for recovery when a local stack
 * restarts, never on a job's path).
 */
export async function scanConversationIds(
  client: DynamoDBDocumentClient,
  tableName: string,
): Promise<string[]> {
  const ids: string[] = [];
  const pages = paginateScan(
    { client },
    {
      TableName: tableName,
      FilterExpression: 'sk = :head',
      ExpressionAttributeValues: { ':head': HEAD_KEY },
      ProjectionExpression: 'pk',
    },
  );
  for await (const page of pages) {
    for (const item of page.Items ?? []) {
      const pk = item.pk;
      if (typeof pk === 'string' && pk.startsWith('conv#')) ids.push(pk.slice('conv#'.length));
    }
  }
  return ids;
}
