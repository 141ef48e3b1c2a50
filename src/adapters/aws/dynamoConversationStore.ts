import {
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  type QueryCommandInput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { SequencedEvent } from '../../runtime/outbox.js';
import {
  type AgentRunRecord,
  type CommitRequest,
  ConcurrentUpdateError,
  type ConversationHead,
  type ConversationStore,
} from '../../runtime/ports.js';
import { headAttributes, parseEvents, parseHead, parseRun, runAttributes } from './dynamoItems.js';
import { conversationKey, eventKey, expiryOf, HEAD_KEY, isExpired, runKey } from './dynamoKeys.js';
import { queryAll } from './dynamoQuery.js';
import { itemBytes, type StoreMeter } from './storeMeter.js';

/** Settings of the DynamoDB conversation store. */
export interface DynamoConversationStoreOptions {
  readonly client: DynamoDBDocumentClient;
  readonly tableName: string;
  /** Every write pushes the item's expiry this far ahead. */
  readonly ttlSeconds: number;
  readonly now: () => number;
  /** Counts requests and bytes when given (benchmarks). */
  readonly meter?: StoreMeter;
}

/**
 * Conversations in one DynamoDB table: the head (the commit point, written with a version
 * condition), one event item per version and one item per agent run record. No transactions.
 */
export class DynamoConversationStore implements ConversationStore {
  constructor(private readonly options: DynamoConversationStoreOptions) {}

  async load(conversationId: string): Promise<ConversationHead | undefined> {
    const item = await this.get(conversationId, HEAD_KEY);
    return item === undefined ? undefined : parseHead(conversationId, item);
  }

  async commit(request: CommitRequest): Promise<void> {
    const { conversationId, expectedVersion, head } = request;
    if (head.version !== expectedVersion + 1) {
      throw new RangeError(
        `commit of ${conversationId}: head version ${head.version} does not follow ${expectedVersion}`,
      );
    }
    // Run records have per-job keys, so a losing attempt's records are never read.
    await Promise.all(
      request.runs.map((run) =>
        this.put(conversationId, runKey(run.runId, run.jobId), runAttributes(run)),
      ),
    );
    const nowSeconds = Math.floor(this.options.now() / 1000);
    try {
      await this.put(
        conversationId,
        HEAD_KEY,
        headAttributes(head),
        expectedVersion === 0
          ? {
              // An expired head that DynamoDB has not deleted yet counts as absent.
              ConditionExpression: 'attribute_not_exists(pk) OR #ttl <= :now',
              ExpressionAttributeNames: { '#ttl': 'ttl' },
              ExpressionAttributeValues: { ':now': nowSeconds },
            }
          : {
              ConditionExpression: 'version = :expected',
              ExpressionAttributeValues: { ':expected': expectedVersion },
            },
      );
    } catch (error) {
      if (isConditionFailure(error)) {
        throw new ConcurrentUpdateError(conversationId, expectedVersion, { cause: error });
      }
      throw error;
    }
  }

  async appendEvents(
    conversationId: string,
    version: number,
    events: readonly SequencedEvent[],
  ): Promise<void> {
    await this.put(conversationId, eventKey(version), { events: JSON.stringify(events) });
  }

  async clearOutbox(conversationId: string, version: number): Promise<void> {
    this.count('writes', 1);
    try {
      await this.options.client.send(
        new UpdateCommand({
          TableName: this.options.tableName,
          Key: { pk: conversationKey(conversationId), sk: HEAD_KEY },
          UpdateExpression: 'REMOVE outbox',
          ConditionExpression: 'version = :version',
          ExpressionAttributeValues: { ':version': version },
        }),
      );
    } catch (error) {
      // A later commit replaced the head, and its outbox is not ours to clear.
      if (!isConditionFailure(error)) throw error;
    }
  }

  async loadRun(
    conversationId: string,
    runId: string,
    jobId: string,
  ): Promise<AgentRunRecord | undefined> {
    const sortKey = runKey(runId, jobId);
    const item = await this.get(conversationId, sortKey);
    return item === undefined ? undefined : parseRun(conversationId, sortKey, item);
  }

  async readEvents(conversationId: string): Promise<SequencedEvent[]> {
    const head = await this.load(conversationId);
    if (head === undefined) return [];
    // Only versions up to the head are trusted: later items belong to no committed head.
    const input: QueryCommandInput = {
      TableName: this.options.tableName,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :first AND :last',
      ExpressionAttributeValues: {
        ':pk': conversationKey(conversationId),
        ':first': eventKey(0),
        ':last': eventKey(head.version),
      },
      ConsistentRead: true,
    };
    const events: SequencedEvent[] = [];
    for (const item of await queryAll(this.options.client, input, this.options.meter)) {
      if (isExpired(item, this.options.now())) continue;
      events.push(...parseEvents(conversationId, String(item.sk), item));
    }
    return events.sort((a, b) => a.seq - b.seq);
  }

  private async get(
    conversationId: string,
    sortKey: string,
  ): Promise<Record<string, unknown> | undefined> {
    const { Item } = await this.options.client.send(
      new GetCommand({
        TableName: this.options.tableName,
        Key: { pk: conversationKey(conversationId), sk: sortKey },
        ConsistentRead: true,
      }),
    );
    this.count('reads', 1);
    if (Item === undefined) return undefined;
    this.count('bytesRead', itemBytes(Item));
    return isExpired(Item, this.options.now()) ? undefined : Item;
  }

  private async put(
    conversationId: string,
    sortKey: string,
    attributes: Record<string, unknown>,
    condition: Omit<PutInput, 'TableName' | 'Item'> = {},
  ): Promise<void> {
    const now = this.options.now();
    const item = {
      pk: conversationKey(conversationId),
      sk: sortKey,
      ...attributes,
      ttl: expiryOf(now, this.options.ttlSeconds),
      updated_at: new Date(now).toISOString(),
    };
    this.count('writes', 1);
    this.count('bytesWritten', itemBytes(item));
    await this.options.client.send(
      new PutCommand({ TableName: this.options.tableName, Item: item, ...condition }),
    );
  }

  private count(field: keyof StoreMeter, amount: number): void {
    if (this.options.meter) this.options.meter[field] += amount;
  }
}

type PutInput = ConstructorParameters<typeof PutCommand>[0];

function isConditionFailure(error: unknown): boolean {
  return error instanceof Error && error.name === 'ConditionalCheckFailedException';
}
