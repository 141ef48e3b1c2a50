import { createHash } from 'node:crypto';
import { SendMessageBatchCommand, SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { SwitchboardError } from '../../resilience/index.js';
import type { Job } from '../../runtime/jobs.js';

/** SQS delays a message at most 15 minutes; longer waits pass through the delay queue again. */
export const MAX_DELAY_SECONDS = 900;
const BATCH_SIZE = 10;

/** SQS refused some jobs; those listed were not queued. Code `JOB_ENQUEUE_REFUSED`. */
export class JobEnqueueError extends SwitchboardError {
  override readonly name = 'JobEnqueueError';
  override readonly code = 'JOB_ENQUEUE_REFUSED';
  constructor(
    readonly queueUrl: string,
    readonly failures: readonly { jobId: string; code: string; message: string }[],
  ) {
    super(
      `queue ${queueUrl} refused ${failures.length} job(s): ${failures
        .map((f) => `${f.jobId} (${f.code}: ${f.message})`)
        .join(', ')}`,
    );
  }
}

/** Seconds until `notBefore`, rounded up and capped at SQS's limit; 0 when due. */
export function delaySeconds(notBefore: number | undefined, now: number): number {
  if (notBefore === undefined || notBefore <= now) return 0;
  return Math.min(MAX_DELAY_SECONDS, Math.ceil((notBefore - now) / 1000));
}

/** Sends due jobs to the FIFO queue in order, ten a request: grouped by conversation, deduplicated by id. */
export async function sendToFifo(
  client: SQSClient,
  queueUrl: string,
  jobs: readonly Job[],
): Promise<void> {
  for (let start = 0; start < jobs.length; start += BATCH_SIZE) {
    const chunk = jobs.slice(start, start + BATCH_SIZE);
    const { Failed } = await client.send(
      new SendMessageBatchCommand({
        QueueUrl: queueUrl,
        Entries: chunk.map((job, index) => ({
          Id: String(index),
          MessageBody: messageBody(job),
          MessageGroupId: sqsId(job.conversation_id),
          MessageDeduplicationId: sqsId(job.id),
        })),
      }),
    );
    if (Failed !== undefined && Failed.length > 0) {
      throw new JobEnqueueError(
        queueUrl,
        Failed.map((entry) => ({
          jobId: chunk[Number(entry.Id)]?.id ?? `entry ${entry.Id}`,
          code: entry.Code ?? 'unknown',
          message: entry.Message ?? '',
        })),
      );
    }
  }
}

/** Sends a job to the standard delay queue, to come back after `seconds`. */
export async function sendToDelayQueue(
  client: SQSClient,
  queueUrl: string,
  job: Job,
  seconds: number,
): Promise<void> {
  await client.send(
    new SendMessageCommand({
      QueueUrl: queueUrl,
      MessageBody: messageBody(job),
      DelaySeconds: seconds,
    }),
  );
}

// JSON.stringify already escapes control characters. SQS refuses U+FFFE/U+FFFF, and fauxqs
// also refuses surrogates, that is every emoji.
const UNSAFE_BODY_CHAR = /[\uD800-\uDFFF\uFFFE\uFFFF]/g;

/** The job as JSON that any SQS accepts: characters it refuses become `\u` escapes (JSON reads them back). */
export function messageBody(job: Job): string {
  return JSON.stringify(job).replace(
    UNSAFE_BODY_CHAR,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * A group or deduplication id SQS accepts (1–128 printable ASCII characters): the value itself
 * when it qualifies, else a stable hash of it, so the same conversation keeps the same group.
 */
export function sqsId(value: string): string {
  if (/^[\x21-\x7e]{1,128}$/.test(value)) return value;
  return `h-${createHash('sha256').update(value).digest('hex')}`;
}
