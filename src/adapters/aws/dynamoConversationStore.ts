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
  type EventPage,
  type EventRange,
} from '../../runtime/ports.js';
import {
  eventsAttributes,
  headAttributes,
  parseEvents,
  parseHead,
  parseRun,
  runAttributes,
} from './dynamoItems.js';
import { conversationKey, eventKey, HEAD_KEY, isExpired, runKey } from './dynamoKeys.js';
import { queryItems } from './dynamoQuery.js';
import {
  bookAttributes,
  type ExpiryBook,
  expiriesAt,
  parseBook,
  planRefresh,
} from './expiryPlan.js';
import { StoredDataError } from './storeErrors.js';
import { itemBytes, type StoreMeter } from './storeMeter.js';

/** Settings of the DynamoDB conversation store. */
export interface DynamoConversationStoreOptions {
  readonly client: DynamoDBDocumentClient;
  readonly tableName: string;
  /** A conversation expires this long after its last commit (see `expiryPlan.ts`). */
  readonly ttlSeconds: number;
  readonly now: () => number;
  /** Counts requests and bytes when given (benchmarks). */
  readonly meter?: StoreMeter;
}

/** Heads whose expiry books a store keeps between a load and the commit that follows it. */
const REMEMBERED_BOOKS = 1000;

/**
 * Conversations in one DynamoDB table: the head (the commit point, written with a version
 * condition), one event item per version and one item per agent run record. No transactions.
 *
 * Nothing the head points to expires before it, at a constant cost per commit: the head carries
 * a book of its items' expiries, and each commit refreshes a bounded batch of the items that
 * come near it before it writes the head (see `expiryPlan.ts`). The book travels from `load` to
 * the next `commit` in this object, keyed by conversation and version; a commit without a
 * preceding load of that version reads the head once more.
 */
export class DynamoConversationStore implements ConversationStore {
  private readonly books = new Map<string, { version: number; book: ExpiryBook }>();

  constructor(private readonly options: DynamoConversationStoreOptions) {}

  async load(conversationId: string): Promise<ConversationHead | undefined> {
    const item = await this.get(conversationId, HEAD_KEY);
    if (item === undefined) return undefined;
    const head = parseHead(conversationId, item);
    this.remember(conversationId, head.version, this.bookOf(conversationId, item));
    return head;
  }

  async commit(request: CommitRequest): Promise<void> {
    const { conversationId, expectedVersion, head } = request;
    if (head.version !== expectedVersion + 1) {
      throw new RangeError(
        `commit of ${conversationId}: head version ${head.version} does not follow ${expectedVersion}`,
      );
    }
    const now = this.options.now();
    const expiry = expiriesAt(now, this.options.ttlSeconds);
    const plan = planRefresh({
      previous:
        expectedVersion === 0 ? undefined : await this.bookFor(conversationId, expectedVersion),
      nowMs: now,
      ttlSeconds: this.options.ttlSeconds,
      version: head.version,
      runs: head.runs,
      written: new Set(request.runs.map((run) => `${run.runId}#${run.jobId}`)),
    });
    // Run records have per-job keys, so a losing attempt's records are never read. Refreshes
    // only push expiries later, so a losing attempt's refreshes are harmless.
    await Promise.all([
      ...request.runs.map((run) =>
        this.put(conversationId, runKey(run.runId, run.jobId), runAttributes(run), expiry.head),
      ),
      ...Object.entries(plan.runs).map(([runId, jobId]) =>
        this.refresh(conversationId, runKey(runId, jobId), expiry.head),
      ),
      ...plan.eventVersions.map((version) =>
        this.refresh(conversationId, eventKey(version), expiry.events),
      ),
    ]);
    const nowSeconds = Math.floor(now / 1000);
    try {
      await this.put(
        conversationId,
        HEAD_KEY,
        { ...headAttributes(head), ...bookAttributes(plan.book) },
        expiry.head,
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
    this.remember(conversationId, head.version, plan.book);
  }

  async appendEvents(
    conversationId: string,
    version: number,
    events: readonly SequencedEvent[],
  ): Promise<void> {
    const expiry = expiriesAt(this.options.now(), this.options.ttlSeconds);
    await this.put(conversationId, eventKey(version), eventsAttributes(events), expiry.events);
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
    return (await this.readEventPage(conversationId, {})).events;
  }

  async readEventPage(conversationId: string, range: EventRange): Promise<EventPage> {
    const item = await this.get(conversationId, HEAD_KEY);
    if (item === undefined) return { events: [], more: false };
    const head = parseHead(conversationId, item);
    const log = {
      conversationId,
      version: head.version,
      born: this.bookOf(conversationId, item).born,
    };
    const after = range.after ?? -1;
    const limit = range.limit ?? Number.POSITIVE_INFINITY;
    if (after >= head.nextSeq - 1) return { events: [], more: false };
    const first = after < 0 ? 0 : await this.firstVersionAfter(log, after);
    const events: SequencedEvent[] = [];
    const pageSize = Number.isFinite(limit) ? Math.min(limit + 1, 500) : undefined;
    for await (const logged of this.eventItems(log, first, pageSize)) {
      events.push(...logged.events.filter((e) => e.seq > after));
      if (events.length > limit) break;
    }
    // Items come in version order, and each holds its events in order: so do these.
    return { events: events.slice(0, limit), more: events.length > limit };
  }

  /**
   * The first version holding an event after `after`, found by bisecting the versions: each
   * probe reads from a version to the first item with events. Event numbers grow with versions.
   */
  private async firstVersionAfter(log: EventLog, after: number): Promise<number> {
    let low = 1;
    let high = log.version;
    while (low < high) {
      const middle = Math.floor((low + high) / 2);
      const probe = await this.firstWithEvents(log, middle);
      if (probe === undefined || probe.last > after) high = middle;
      else low = probe.version + 1;
    }
    return low;
  }

  private async firstWithEvents(
    log: EventLog,
    from: number,
  ): Promise<{ version: number; last: number } | undefined> {
    for await (const logged of this.eventItems(log, from, 3)) {
      const last = logged.events.at(-1);
      if (last) return { version: logged.version, last: last.seq };
    }
    return undefined;
  }

  /** The event items from version `from` to the head's, skipping expired and foreign ones. */
  private async *eventItems(
    log: EventLog,
    from: number,
    pageSize: number | undefined,
  ): AsyncGenerator<{ version: number; events: SequencedEvent[] }> {
    // Only versions up to the head are trusted: later items belong to no committed head.
    const input: QueryCommandInput = {
      TableName: this.options.tableName,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :first AND :last',
      ExpressionAttributeValues: {
        ':pk': conversationKey(log.conversationId),
        ':first': eventKey(from),
        ':last': eventKey(log.version),
      },
      ConsistentRead: true,
      ...(pageSize === undefined ? {} : { Limit: pageSize }),
    };
    const now = this.options.now();
    // Event items outlive their head; those written before this conversation began are of an
    // earlier one under the same sender, which expired at least a ttl before.
    const earliest = log.born - (this.options.ttlSeconds * 1000) / 2;
    for await (const item of queryItems(this.options.client, input, this.options.meter)) {
      if (isExpired(item, now)) continue;
      if (log.born > 0 && Date.parse(String(item.updated_at)) < earliest) continue;
      const sortKey = String(item.sk);
      yield {
        version: Number(sortKey.slice(sortKey.indexOf('#') + 1)),
        events: parseEvents(log.conversationId, sortKey, item),
      };
    }
  }

  /** The book of the head at `version`: remembered from its load, or read once more. */
  private async bookFor(conversationId: string, version: number): Promise<ExpiryBook | undefined> {
    const remembered = this.books.get(conversationId);
    if (remembered?.version === version) return remembered.book;
    const item = await this.get(conversationId, HEAD_KEY);
    // Another head is there: the conditional write of this commit fails anyway.
    return item === undefined ? undefined : this.bookOf(conversationId, item);
  }

  private bookOf(conversationId: string, item: Record<string, unknown>): ExpiryBook {
    try {
      return parseBook(item);
    } catch (error) {
      throw new StoredDataError(conversationId, HEAD_KEY, { cause: error });
    }
  }

  private remember(conversationId: string, version: number, book: ExpiryBook): void {
    this.books.delete(conversationId);
    this.books.set(conversationId, { version, book });
    if (this.books.size > REMEMBERED_BOOKS) {
      const oldest = this.books.keys().next().value;
      if (oldest !== undefined) this.books.delete(oldest);
    }
  }

  /** Pushes an existing item's expiry to `ttl`; an item already gone stays gone. */
  private async refresh(conversationId: string, sortKey: string, ttl: number): Promise<void> {
    this.count('writes', 1);
    try {
      await this.options.client.send(
        new UpdateCommand({
          TableName: this.options.tableName,
          Key: { pk: conversationKey(conversationId), sk: sortKey },
          UpdateExpression: 'SET #ttl = :ttl',
          ConditionExpression: 'attribute_exists(sk) AND #ttl < :ttl',
          ExpressionAttributeNames: { '#ttl': 'ttl' },
          ExpressionAttributeValues: { ':ttl': ttl },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
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
    ttl: number,
    condition: Omit<PutInput, 'TableName' | 'Item'> = {},
  ): Promise<void> {
    const now = this.options.now();
    const item = {
      pk: conversationKey(conversationId),
      sk: sortKey,
      ...attributes,
      ttl,
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

interface EventLog {
  readonly conversationId: string;
  /** The head's version: the last one whose events are trusted. */
  readonly version: number;
  readonly born: number;
}

function isConditionFailure(error: unknown): boolean {
  return error instanceof Error && error.name === 'ConditionalCheckFailedException';
}
