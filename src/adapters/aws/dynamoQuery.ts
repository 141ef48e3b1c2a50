import {
  type DynamoDBDocumentClient,
  QueryCommand,
  type QueryCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { itemBytes, type StoreMeter } from './storeMeter.js';

/** Runs a query to its last page; each page counts as one read. */
export async function queryAll(
  client: DynamoDBDocumentClient,
  input: QueryCommandInput,
  meter?: StoreMeter,
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  for await (const item of queryItems(client, input, meter)) items.push(item);
  return items;
}

/** A query's items, one page fetched at a time as the caller reads on; each page is one read. */
export async function* queryItems(
  client: DynamoDBDocumentClient,
  input: QueryCommandInput,
  meter?: StoreMeter,
): AsyncGenerator<Record<string, unknown>> {
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await client.send(new QueryCommand({ ...input, ExclusiveStartKey: startKey }));
    const pageItems = page.Items ?? [];
    if (meter) {
      meter.reads += 1;
      for (const item of pageItems) meter.bytesRead += itemBytes(item);
    }
    yield* pageItems;
    startKey = page.LastEvaluatedKey;
  } while (startKey !== undefined);
}
