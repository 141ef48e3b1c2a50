import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { DelayedJobForwarder } from '../src/adapters/aws/sqsJobQueue.js';
import { describeError } from '../src/resilience/index.js';
import { queueOptions } from './shared/aws.js';
import { lambdaHandler, logger, metrics } from './shared/observability.js';
import { jobOf } from './shared/sqsRecords.js';

const forwarder = new DelayedJobForwarder(queueOptions);
const processor = new BatchProcessor(EventType.SQS);

/**
 * Releases delayed jobs: each message of the delay queue goes to the FIFO queue when due, or back
 * to the delay queue for the time left. A failed forward is retried by SQS alone.
 */
export const handler = lambdaHandler(
  (event: SQSEvent, context: Context): Promise<SQSBatchResponse> =>
    processPartialResponse(event, forwardRecord, processor, {
      context,
      throwOnFullBatchFailure: false,
    }),
);

async function forwardRecord(record: SQSRecord): Promise<void> {
  try {
    const job = jobOf(record);
    await forwarder.forward(job);
    metrics.addMetric('JobsForwarded', MetricUnit.Count, 1);
  } catch (error) {
    logger.error('forwarding a delayed job failed; SQS delivers it again', {
      messageId: record.messageId,
      error: describeError(error),
    });
    throw error;
  }
}
