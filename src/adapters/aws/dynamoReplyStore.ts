import { type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { OutboundMessage } from '../../runtime/outbox.js';
import type { ReplyBatch, ReplyStore } from '../../runtime/ports.js';
import { conversationKey, expiryOf, isExpired, replyKey, replyPrefix } from './dynamoKeys.js';
import { queryAll } from './dynamoQuery.js';
import { StoredDataError } from './storeErrors.js';

/** Settings of the DynamoDB reply store. */
export interface DynamoReplyStoreOptions {
  readonly client: DynamoDBDocumentClient;
  readonly tableName: string;
  readonly ttlSeconds: number;
  readonly now: () => number;
}

const ReplyItem = z.lazy(() => z.object({ messages: z.string(), settled: z.boolean() }));
const StoredMessages = z.lazy(() => z.array(OutboundMessage));
const VERSION_SUFFIX = /^\d{12}$/;

/**
 * REST-channel replies in the conversation table, one item per committed version of a turn
 * (`reply#<turnId>#<version>`), so delivering a batch again overwrites it with the same content.
 */
export class DynamoReplyStore implements ReplyStore {
  constructor(private readonly options: DynamoReplyStoreOptions) {}

  async deliver(batch: ReplyBatch): Promise<void> {
    const now = this.options.now();
    await this.options.client.send(
      new PutCommand({
        TableName: this.options.tableName,
        Item: {
          pk: conversationKey(batch.conversationId),
          sk: replyKey(batch.turnId, batch.version),
          job_id: batch.jobId,
          channel: batch.channel,
          messages: JSON.stringify(batch.messages),
          settled: batch.settled,
          ttl: expiryOf(now, this.options.ttlSeconds),
          updated_at: new Date(now).toISOString(),
        },
      }),
    );
  }

  async read(
    conversationId: string,
    turnId: string,
  ): Promise<{ messages: OutboundMessage[]; settled: boolean }> {
    const prefix = replyPrefix(turnId);
    const items = await queryAll(this.options.client, {
      TableName: this.options.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: {
        ':pk': conversationKey(conversationId),
        ':prefix': prefix,
      },
      ConsistentRead: true,
    });
    const messages: OutboundMessage[] = [];
    let settled = false;
    for (const item of items) {
      const sortKey = String(item.sk);
      // A turn id that extends this one (`t#1` after `t`) shares the prefix, not the shape.
      if (!VERSION_SUFFIX.test(sortKey.slice(prefix.length))) continue;
      if (isExpired(item, this.options.now())) continue;
      try {
        const stored = ReplyItem.parse(item);
        messages.push(...StoredMessages.parse(JSON.parse(stored.messages)));
        settled ||= stored.settled;
      } catch (error) {
        throw new StoredDataError(conversationId, sortKey, { cause: error });
      }
    }
    return { messages, settled };
  }
}
