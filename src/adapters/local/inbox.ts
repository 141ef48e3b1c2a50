import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  PutCommand,
  paginateQuery,
} from '@aws-sdk/lib-dynamodb';
import { decodeJob, type Job, type JobQueue } from '../../runtime/index.js';

/** The partition that holds the inbox, apart from every conversation's. */
const INBOX_KEY = 'inbox';

export interface DynamoInboxOptions {
  readonly client: DynamoDBDocumentClient;
  readonly tableName: string;
  readonly now: () => number;
}

/**
 * Accepted user messages (and channels' own jobs), kept in the table from before the webhook
 * answers until a worker has run them. The local stack's queue lives in memory; with `--state` this is what makes an
 * accepted message survive a restart. (On AWS the SQS queue itself is durable.)
 */
export class DynamoInbox {
  private sequence = 0;

  constructor(private readonly options: DynamoInboxOptions) {}

  async add(job: Job): Promise<void> {
    // Order of acceptance, so that recovery queues each conversation's messages as they came.
    this.sequence += 1;
    const order = `${String(this.options.now()).padStart(15, '0')}#${String(this.sequence).padStart(9, '0')}`;
    await this.options.client.send(
      new PutCommand({
        TableName: this.options.tableName,
        Item: { pk: INBOX_KEY, sk: job.id, order, job: JSON.stringify(job) },
      }),
    );
  }

  async remove(jobId: string): Promise<void> {
    await this.options.client.send(
      new DeleteCommand({ TableName: this.options.tableName, Key: { pk: INBOX_KEY, sk: jobId } }),
    );
  }

  /** The messages accepted but not yet run, in the order they were accepted. */
  async pending(): Promise<Job[]> {
    const items: { order: string; job: Job }[] = [];
    const pages = paginateQuery(
      { client: this.options.client },
      {
        TableName: this.options.tableName,
        KeyConditionExpression: 'pk = :inbox',
        ExpressionAttributeValues: { ':inbox': INBOX_KEY },
      },
    );
    for await (const page of pages) {
      for (const item of page.Items ?? []) {
        const decoded = decodeJob(typeof item.job === 'string' ? item.job : undefined);
        if (decoded.ok) items.push({ order: String(item.order), job: decoded.job });
      }
    }
    return items.sort((a, b) => a.order.localeCompare(b.order)).map((item) => item.job);
  }
}

/**
 * Whether a job waits in the inbox until it has run: user messages, and channels' own jobs (the
 * A2A server's push notifications and task deadlines), which no conversation's state recalls.
 */
export function keptInInbox(job: Job): boolean {
  return job.type === 'user_message' || job.type === 'channel_work';
}

/** A job queue that puts every job the inbox keeps in it before it queues it. */
export class InboxJobQueue implements JobQueue {
  constructor(
    private readonly queue: JobQueue,
    private readonly inbox: DynamoInbox,
  ) {}

  async enqueue(jobs: readonly Job[]): Promise<void> {
    for (const job of jobs) if (keptInInbox(job)) await this.inbox.add(job);
    await this.queue.enqueue(jobs);
  }
}
