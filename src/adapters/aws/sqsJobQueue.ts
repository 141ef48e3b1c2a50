import type { SQSClient } from '@aws-sdk/client-sqs';
import type { Job } from '../../runtime/jobs.js';
import type { JobQueue } from '../../runtime/ports.js';
import { delaySeconds, sendToDelayQueue, sendToFifo } from './sqsSend.js';

/** Settings shared by the SQS job queue and the delayed-job forwarder. */
export interface SqsJobQueueOptions {
  readonly client: SQSClient;
  /** The FIFO queue the workers consume. */
  readonly jobsQueueUrl: string;
  /** The standard queue that holds jobs until their `not_before` (FIFO queues cannot delay one message). */
  readonly delayQueueUrl: string;
  readonly now: () => number;
}

/** Queues due jobs on the FIFO queue (one group per conversation) and later ones on the delay queue. */
export class SqsJobQueue implements JobQueue {
  constructor(private readonly options: SqsJobQueueOptions) {}

  async enqueue(jobs: readonly Job[]): Promise<void> {
    const now = this.options.now();
    const due: Job[] = [];
    const later: { job: Job; seconds: number }[] = [];
    for (const job of jobs) {
      const seconds = delaySeconds(job.not_before, now);
      if (seconds === 0) due.push(job);
      else later.push({ job, seconds });
    }
    const { client, jobsQueueUrl, delayQueueUrl } = this.options;
    await sendToFifo(client, jobsQueueUrl, due);
    for (const { job, seconds } of later)
      await sendToDelayQueue(client, delayQueueUrl, job, seconds);
  }
}

/**
 * Moves a job that came back from the delay queue on: to the FIFO queue when due, else back to
 * the delay queue for the remaining time. Used by the local delay loop and the delay Lambda.
 */
export class DelayedJobForwarder {
  private readonly queue: SqsJobQueue;

  constructor(options: SqsJobQueueOptions) {
    this.queue = new SqsJobQueue(options);
  }

  forward(job: Job): Promise<void> {
    return this.queue.enqueue([job]);
  }
}
