import { createHash } from 'node:crypto';
import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  type PutCommandInput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { type A2ATaskStore, parseTaskRecord, type TaskRecord } from '../../a2aServer/index.js';
import { conversationKey, expiryOf, isExpired } from './dynamoKeys.js';
import { queryAll } from './dynamoQuery.js';
import { StoredDataError } from './storeErrors.js';

export interface DynamoTaskStoreOptions {
  readonly client: DynamoDBDocumentClient;
  readonly tableName: string;
  /** A task is kept this long after its last change, as its conversation is. */
  readonly ttlSeconds: number;
  readonly now: () => number;
}

const TASK_PREFIX = 'a2atask#';
const MESSAGE_PREFIX = 'a2amsg#';
/** The marker of a conversation that is an open A2A context. */
const CONTEXT_KEY = 'a2actx';
/** The partition of the slots open contexts take in turn (`max_contexts`). */
const CONTEXTS_KEY = 'a2a#contexts';

/**
 * The A2A server's tasks in the conversation table: `a2atask#<taskId>` items of the conversation
 * with a version that every write is conditional on, and claims of message ids, each in a
 * partition of its own (`a2amsg#<hash of caller and message id>`), as a message may name no
 * context yet; an `a2actx` marker in each open context's partition, and the slots open contexts
 * take in turn (`a2a#contexts`) for `max_contexts`.
 */
export class DynamoTaskStore implements A2ATaskStore {
  constructor(private readonly options: DynamoTaskStoreOptions) {}

  async load(conversationId: string, taskId: string): Promise<TaskRecord | undefined> {
    const sortKey = `${TASK_PREFIX}${taskId}`;
    const { Item } = await this.options.client.send(
      new GetCommand({
        TableName: this.options.tableName,
        Key: { pk: conversationKey(conversationId), sk: sortKey },
        ConsistentRead: true,
      }),
    );
    if (!Item || isExpired(Item, this.options.now())) return undefined;
    return this.parse(conversationId, sortKey, Item);
  }

  async save(conversationId: string, record: TaskRecord): Promise<boolean> {
    const now = this.options.now();
    const condition: Omit<PutCommandInput, 'TableName' | 'Item'> =
      record.version === 1
        ? {
            // An expired task that DynamoDB has not deleted yet counts as absent.
            ConditionExpression: 'attribute_not_exists(pk) OR #ttl <= :now',
            ExpressionAttributeNames: { '#ttl': 'ttl' },
            ExpressionAttributeValues: { ':now': Math.floor(now / 1000) },
          }
        : {
            ConditionExpression: 'version = :previous',
            ExpressionAttributeValues: { ':previous': record.version - 1 },
          };
    return this.put(
      {
        pk: conversationKey(conversationId),
        sk: `${TASK_PREFIX}${record.id}`,
        version: record.version,
        state: record.state,
        task: JSON.stringify(record),
        ttl: expiryOf(now, this.options.ttlSeconds),
        updated_at: new Date(now).toISOString(),
      },
      condition,
    );
  }

  async list(conversationId: string): Promise<TaskRecord[]> {
    const items = await queryAll(this.options.client, {
      TableName: this.options.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: {
        ':pk': conversationKey(conversationId),
        ':prefix': TASK_PREFIX,
      },
      ConsistentRead: true,
    });
    const now = this.options.now();
    return items
      .filter((item) => !isExpired(item, now))
      .map((item) => this.parse(conversationId, String(item.sk), item));
  }

  async claimMessage(
    messageKey: string,
    turnId: string,
    expiresAt: number,
  ): Promise<string | undefined> {
    const key = this.claimKey(messageKey);
    const now = this.options.now();
    const claimed = await this.put(
      {
        ...key,
        turn_id: turnId,
        expires_at: expiresAt,
        ttl: Math.ceil(expiresAt / 1000),
        updated_at: new Date(now).toISOString(),
      },
      {
        ConditionExpression: 'attribute_not_exists(pk) OR expires_at <= :now',
        ExpressionAttributeValues: { ':now': now },
      },
    );
    if (claimed) return undefined;
    const { Item } = await this.options.client.send(
      new GetCommand({ TableName: this.options.tableName, Key: key, ConsistentRead: true }),
    );
    return typeof Item?.turn_id === 'string' ? Item.turn_id : turnId;
  }

  async releaseMessage(messageKey: string, turnId: string): Promise<void> {
    try {
      await this.options.client.send(
        new DeleteCommand({
          TableName: this.options.tableName,
          Key: this.claimKey(messageKey),
          ConditionExpression: 'turn_id = :turn',
          ExpressionAttributeValues: { ':turn': turnId },
        }),
      );
    } catch (error) {
      if (!(error instanceof Error && error.name === 'ConditionalCheckFailedException'))
        throw error;
    }
  }

  private claimKey(messageKey: string) {
    const digest = createHash('sha256').update(messageKey).digest('hex').slice(0, 40);
    return { pk: `${MESSAGE_PREFIX}${digest}`, sk: 'claim' };
  }

  async openContext(conversationId: string): Promise<boolean> {
    const now = this.options.now();
    return this.put(
      {
        pk: conversationKey(conversationId),
        sk: CONTEXT_KEY,
        ttl: expiryOf(now, this.options.ttlSeconds),
        updated_at: new Date(now).toISOString(),
      },
      {
        ConditionExpression: 'attribute_not_exists(pk) OR #ttl <= :now',
        ExpressionAttributeNames: { '#ttl': 'ttl' },
        ExpressionAttributeValues: { ':now': Math.floor(now / 1000) },
      },
    );
  }

  async closeContext(conversationId: string): Promise<void> {
    await this.options.client.send(
      new DeleteCommand({
        TableName: this.options.tableName,
        Key: { pk: conversationKey(conversationId), sk: CONTEXT_KEY },
      }),
    );
  }

  async takeContextSlot(limit: number, conversationId: string): Promise<string | undefined> {
    const { Attributes } = await this.options.client.send(
      new UpdateCommand({
        TableName: this.options.tableName,
        Key: { pk: CONTEXTS_KEY, sk: 'counter' },
        UpdateExpression: 'ADD #next :one',
        ExpressionAttributeNames: { '#next': 'next' },
        ExpressionAttributeValues: { ':one': 1 },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    const slot = (Number(Attributes?.next ?? 1) - 1) % limit;
    const previous = await this.options.client.send(
      new PutCommand({
        TableName: this.options.tableName,
        Item: { pk: CONTEXTS_KEY, sk: `slot#${slot}`, conversation_id: conversationId },
        ReturnValues: 'ALL_OLD',
      }),
    );
    const held = previous.Attributes?.conversation_id;
    return typeof held === 'string' ? held : undefined;
  }

  private async put(
    item: Record<string, unknown>,
    condition: Omit<PutCommandInput, 'TableName' | 'Item'>,
  ): Promise<boolean> {
    try {
      await this.options.client.send(
        new PutCommand({ TableName: this.options.tableName, Item: item, ...condition }),
      );
      return true;
    } catch (error) {
      if (error instanceof Error && error.name === 'ConditionalCheckFailedException') return false;
      throw error;
    }
  }

  private parse(conversationId: string, sortKey: string, item: Record<string, unknown>) {
    try {
      return parseTaskRecord(sortKey.slice(TASK_PREFIX.length), JSON.parse(String(item.task)));
    } catch (error) {
      throw new StoredDataError(conversationId, sortKey, { cause: error });
    }
  }
}
