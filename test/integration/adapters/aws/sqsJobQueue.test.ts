import { randomUUID } from 'node:crypto';
import {
  CreateQueueCommand,
  GetQueueAttributesCommand,
  SendMessageCommand,
} from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DelayedJobForwarder, SqsJobQueue } from '../../../../src/adapters/aws/sqsJobQueue.js';
import {
  type ReceivedMessage,
  SqsJobReceiver,
} from '../../../../src/adapters/aws/sqsJobReceiver.js';
import { SqsJobSource } from '../../../../src/adapters/aws/sqsJobSource.js';
import { JobEnqueueError } from '../../../../src/adapters/aws/sqsSend.js';
import { ensureQueues, type LocalQueues } from '../../../../src/adapters/local/emulators.js';
import type { Job } from '../../../../src/runtime/jobs.js';
import type { ReceivedJob } from '../../../../src/runtime/worker.js';
import { type Emulators, startEmulators } from '../../../helpers/emulators.js';
import { SILENT_LOGGER } from '../../../helpers/logger.js';
import { waitFor } from '../../../helpers/waitFor.js';

const NOW = Date.parse('2030-01-01T00:00:00Z');

let aws: Emulators;
let receiver: SqsJobReceiver;
beforeAll(async () => {
  aws = await startEmulators();
  receiver = new SqsJobReceiver(aws.sqs);
});
afterAll(async () => {
  await aws.close();
});

function userJob(conversationId: string, id: string, extra: Partial<Job> = {}): Job {
  return {
    type: 'user_message',
    id,
    conversation_id: conversationId,
    turn_id: id,
    text: `message ${id}`,
    channel: 'rest',
    ...extra,
  } as Job;
}

/** Queues of the calling test's own, so no test receives or drains another's messages. */
function ownQueues(options: { maxReceiveCount?: number } = {}): Promise<LocalQueues> {
  return ensureQueues(aws.sqs, { prefix: `${aws.prefix}-${randomUUID().slice(0, 8)}`, ...options });
}

/** Receives one message, polling until it arrives: a delayed message comes back only after its delay. */
function receiveOne(queueUrl: string): Promise<ReceivedMessage> {
  return waitFor(async () => (await receiver.receive({ queueUrl, max: 1, waitSeconds: 1 }))[0], {
    description: `a message on ${queueUrl}`,
  });
}

function queueAt(now: () => number, urls: LocalQueues) {
  return new SqsJobQueue({
    client: aws.sqs,
    jobsQueueUrl: urls.jobsQueueUrl,
    delayQueueUrl: urls.delayQueueUrl,
    now,
  });
}

/** Receives and deletes until the queue stays empty: fauxqs hands out one message per group a call. */
async function drain(queueUrl: string): Promise<ReceivedMessage[]> {
  const all: ReceivedMessage[] = [];
  for (;;) {
    const batch = await receiver.receive({ queueUrl, max: 10, waitSeconds: 0 });
    if (batch.length === 0) return all;
    for (const message of batch) await receiver.delete(queueUrl, message.receiptHandle);
    all.push(...batch);
  }
}

const jobIds = (messages: ReceivedMessage[]) =>
  messages.map((m) => (m.kind === 'job' ? m.job.id : `poison:${m.reason}`));

async function delayedCount(queueUrl: string): Promise<number> {
  const { Attributes } = await aws.sqs.send(
    new GetQueueAttributesCommand({
      QueueUrl: queueUrl,
      AttributeNames: ['ApproximateNumberOfMessagesDelayed'],
    }),
  );
  return Number(Attributes?.ApproximateNumberOfMessagesDelayed);
}

describe('SqsJobQueue', () => {
  it('delivers 30 jobs of a conversation in order, next to another conversation', async () => {
    const urls = await ownQueues();
    const queue = queueAt(() => NOW, urls);
    const ids = Array.from({ length: 30 }, (_, i) => `job-${String(i).padStart(2, '0')}`);
    const jobs = ids.flatMap((id) => [userJob('conv a', id), userJob('conv-b', `b-${id}`)]);

    await queue.enqueue(jobs);
    const received = jobIds(await drain(urls.jobsQueueUrl));

    expect(received.filter((id) => id.startsWith('job-'))).toEqual(ids);
    expect(received.filter((id) => id.startsWith('b-'))).toEqual(ids.map((id) => `b-${id}`));
  });

  it('queues a job id once however often it is enqueued', async () => {
    const urls = await ownQueues();
    const queue = queueAt(() => NOW, urls);
    const job = userJob(`c-${randomUUID()}`, `dup-${randomUUID()}`);

    await queue.enqueue([job, job]);
    await queue.enqueue([job]);

    expect(jobIds(await drain(urls.jobsQueueUrl))).toEqual([job.id]);
  });

  it('round-trips text SQS refuses in a body, such as emoji and noncharacters', async () => {
    const job = userJob('c-emoji', `emoji-${randomUUID()}`, { text: 'hi 👋 \uFFFF\u0001' });

    const urls = await ownQueues();
    await queueAt(() => NOW, urls).enqueue([job]);
    const [message] = await drain(urls.jobsQueueUrl);

    expect(message?.kind === 'job' && message.job).toEqual(job);
  });

  it('reports jobs SQS refused by id', async () => {
    const { QueueUrl } = await aws.sqs.send(
      new CreateQueueCommand({
        QueueName: `${aws.prefix}-${randomUUID().slice(0, 8)}-small.fifo`,
        Attributes: { FifoQueue: 'true', MaximumMessageSize: '1024' },
      }),
    );
    const queue = queueAt(() => NOW, { ...(await ownQueues()), jobsQueueUrl: QueueUrl ?? '' });
    const big = userJob('c', 'too-big', { text: 'x'.repeat(2000) });

    const error = await queue.enqueue([userJob('c', 'fine'), big]).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(JobEnqueueError);
    expect((error as Error).message).toMatch(/refused 1 job\(s\): too-big \(InvalidParameterValue/);
  });

  it('holds a job with a future not_before on the delay queue, never on the FIFO queue', async () => {
    const job = userJob('c-later', `later-${randomUUID()}`, { not_before: NOW + 120_000 });
    const urls = await ownQueues();

    await queueAt(() => NOW, urls).enqueue([job]);

    expect(await delayedCount(urls.delayQueueUrl)).toBe(1);
    expect(await drain(urls.jobsQueueUrl)).toEqual([]);
  });
});

describe('DelayedJobForwarder', () => {
  it('forwards a delayed job to the FIFO queue only once it is due', async () => {
    const urls = await ownQueues();
    let now = NOW;
    const forwarder = new DelayedJobForwarder({
      client: aws.sqs,
      jobsQueueUrl: urls.jobsQueueUrl,
      delayQueueUrl: urls.delayQueueUrl,
      now: () => now,
    });
    const job = userJob('c-timer', 'timer-1', { not_before: NOW + 2_500 });
    await queueAt(() => now, urls).enqueue([job]);

    // The delay queue holds it for its delay (3 s, whole seconds rounded up) before handing it out.
    expect(
      await receiver.receive({ queueUrl: urls.delayQueueUrl, max: 1, waitSeconds: 0 }),
    ).toEqual([]);
    const early = await receiveOne(urls.delayQueueUrl);
    expect(early.kind === 'job' && early.job.id).toBe('timer-1');
    if (early.kind !== 'job') return;

    // Back from the delay queue while the clock says it is not yet due: it goes round again.
    now = NOW + 500;
    await forwarder.forward(early.job);
    await receiver.delete(urls.delayQueueUrl, early.receiptHandle);
    expect(await drain(urls.jobsQueueUrl)).toEqual([]);
    expect(await delayedCount(urls.delayQueueUrl)).toBe(1);

    now = NOW + 2_500;
    const due = await receiveOne(urls.delayQueueUrl);
    if (due.kind !== 'job') throw new Error('expected the job back from the delay queue');
    await forwarder.forward(due.job);
    await receiver.delete(urls.delayQueueUrl, due.receiptHandle);

    expect(jobIds(await drain(urls.jobsQueueUrl))).toEqual(['timer-1']);
  }, 60_000);
});

describe('SqsJobReceiver', () => {
  it('moves a job to the dead-letter queue after maxReceiveCount receives without delete', async () => {
    const urls = await ownQueues({ maxReceiveCount: 2 });
    await queueAt(() => NOW, urls).enqueue([userJob('c-fail', 'fails')]);

    const counts: number[] = [];
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const batch = await receiver.receive({ queueUrl: urls.jobsQueueUrl, max: 1, waitSeconds: 0 });
      for (const message of batch) {
        counts.push(message.receiveCount);
        await receiver.release(urls.jobsQueueUrl, message.receiptHandle);
      }
    }

    expect(counts).toEqual([1, 2]);
    expect(jobIds(await drain(urls.jobsDlqUrl))).toEqual(['fails']);
  });

  it('returns unreadable bodies as poison messages that can be deleted', async () => {
    const queueUrl = (await ownQueues()).jobsQueueUrl;
    for (const [index, body] of ['not json {secret', '{"type":"user_message"}'].entries()) {
      await aws.sqs.send(
        new SendMessageCommand({
          QueueUrl: queueUrl,
          MessageBody: body,
          MessageGroupId: 'poison',
          MessageDeduplicationId: `poison-${index}`,
        }),
      );
    }

    const received = await drain(queueUrl);

    expect(received.map((m) => m.kind)).toEqual(['poison', 'poison']);
    const reasons = received.map((m) => (m.kind === 'poison' ? m.reason : ''));
    expect(reasons[0]).toBe('body is not JSON');
    expect(reasons[1]).toMatch(/^body is not a job: .*id/);
    expect(reasons.join()).not.toContain('secret');
    expect(await drain(queueUrl)).toEqual([]);
  });

  it('returns no messages when its long poll is aborted', async () => {
    const urls = await ownQueues();
    const controller = new AbortController();
    // The longest poll SQS allows: one the abort did not end would outlast this test's timeout.
    const polling = receiver.receive({
      queueUrl: urls.jobsQueueUrl,
      max: 1,
      waitSeconds: 20,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 100);

    expect(await polling).toEqual([]);
  }, 10_000);
});

describe('SqsJobSource', () => {
  it('hands out jobs with their receive count, logs and removes poison, and releases a retry at once', async () => {
    const urls = await ownQueues();
    const logged: string[] = [];
    const logger = {
      ...SILENT_LOGGER,
      info: () => {},
      warn: () => {},
      error: (message: string, fields?: Record<string, unknown>) =>
        logged.push(`${message} ${JSON.stringify(fields)}`),
    };
    const source = new SqsJobSource(receiver, urls.jobsQueueUrl, logger, 1);
    await aws.sqs.send(
      new SendMessageCommand({
        QueueUrl: urls.jobsQueueUrl,
        MessageBody: 'not json',
        MessageGroupId: 'poison',
        MessageDeduplicationId: 'poison-1',
      }),
    );
    await queueAt(() => NOW, urls).enqueue([userJob('ada', 'a1')]);
    const never = new AbortController().signal;

    const first: ReceivedJob[] = [];
    await waitFor(
      async () => {
        first.push(...(await source.receive(10, never)));
        return first.length > 0 && logged.length > 0 ? true : undefined;
      },
      { description: 'the job and the poison message' },
    );
    expect(first.map((j) => [j.job.id, j.receiveCount])).toEqual([['a1', 1]]);
    expect(first[0]?.handle).toEqual(expect.any(String));
    expect(logged).toEqual([
      expect.stringMatching(
        /^dropped a message that is not a job \{"messageId":"[^"]+","reason":"body is not JSON"\}$/,
      ),
    ]);

    await source.retry(first[0]?.handle ?? '');
    const again = await waitFor(async () => (await source.receive(10, never))[0], {
      description: 'the released job',
    });
    expect([again.job.id, again.receiveCount]).toEqual(['a1', 2]);
    await source.complete(again.handle);
    expect(await source.receive(10, never)).toEqual([]);
    expect(await drain(urls.jobsQueueUrl)).toEqual([]);
  });
});
