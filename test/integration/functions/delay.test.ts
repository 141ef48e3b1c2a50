import { GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '../../../src/runtime/index.js';
import { userMessage } from '../../helpers/runtime.js';
import {
  type FunctionsHarness,
  lambdaContext,
  sqsEvent,
  startFunctionsHarness,
} from './harness.js';

type Handler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse>;

describe('delay function', () => {
  let harness: FunctionsHarness;
  let handler: Handler;
  const call = (bodies: readonly (Job | string)[]) =>
    handler(sqsEvent(bodies, { fifo: false }), lambdaContext('delay'));

  beforeAll(async () => {
    harness = await startFunctionsHarness();
    ({ handler } = await import('../../../functions/delay.js'));
  });

  afterAll(async () => {
    await harness?.close();
  });

  it('moves a due job to the FIFO queue, in its conversation group', async () => {
    const job = { ...userMessage('bea', 'are you there?'), not_before: Date.now() - 1000 };
    expect(await call([job])).toEqual({ batchItemFailures: [] });
    expect(await harness.receiveJobs(harness.queues.jobsQueueUrl)).toEqual([
      { job, groupId: 'bea' },
    ]);
  });

  it('sends a job that is not due back to the delay queue for the time left', async () => {
    const job = { ...userMessage('cem', 'later'), not_before: Date.now() + 120_000 };
    expect(await call([job])).toEqual({ batchItemFailures: [] });
    const { Attributes } = await harness.sqs.send(
      new GetQueueAttributesCommand({
        QueueUrl: harness.queues.delayQueueUrl,
        AttributeNames: ['ApproximateNumberOfMessagesDelayed'],
      }),
    );
    expect(Attributes?.ApproximateNumberOfMessagesDelayed).toBe('1');
    expect(await harness.receiveJobs(harness.queues.jobsQueueUrl)).toEqual([]);
  });

  it('reports a message that is not a job as a failed item, and forwards the others', async () => {
    const event = sqsEvent(['not json', userMessage('dan', 'hi')], { fifo: false });
    const result = await handler(event, lambdaContext('delay'));
    expect(result.batchItemFailures).toEqual([{ itemIdentifier: event.Records[0]?.messageId }]);
    const forwarded = await harness.receiveJobs(harness.queues.jobsQueueUrl);
    expect(forwarded.map((f) => f.job.conversation_id)).toEqual(['dan']);
  });
});
