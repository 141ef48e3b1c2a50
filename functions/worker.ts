import { processPartialResponse, SqsFifoPartialProcessorAsync } from '@aws-lambda-powertools/batch';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { describeError } from '../src/resilience/index.js';
import { isLostRace, type JobOutcome, jobScope } from '../src/runtime/index.js';
import { lambdaHandler, logger, metrics } from './shared/observability.js';
import { runtime } from './shared/runtime.js';
import { JobMessageError, jobOf } from './shared/sqsRecords.js';

/** Time kept back from the Lambda deadline so that an aborted job still reports its failure. */
const DEADLINE_MARGIN_MS = 5_000;

const processor = new SqsFifoPartialProcessorAsync();

/**
 * Runs the jobs of the FIFO queue, one at a time. A job that loses an optimistic-concurrency race
 * runs again at once; one that still fails is reported as a batch item failure so SQS delivers it
 * again, and the later messages of its conversation wait with it; other conversations go on.
 */
export const handler = lambdaHandler(
  (event: SQSEvent, context: Context): Promise<SQSBatchResponse> =>
    processPartialResponse(event, runRecord, processor, {
      context,
      skipGroupOnError: true,
      throwOnFullBatchFailure: false,
    }),
);

async function runRecord(record: SQSRecord, context?: Context): Promise<void> {
  let fields: Record<string, unknown> = { messageId: record.messageId };
  logger.setCorrelationId(record.messageId);
  try {
    const job = jobOf(record);
    logger.setCorrelationId(job.turn_id);
    fields = { ...fields, jobId: job.id, jobType: job.type, conversationId: job.conversation_id };
    const remaining = context ? context.getRemainingTimeInMillis() : 60_000;
    const scope = jobScope(Math.max(1_000, remaining - DEADLINE_MARGIN_MS), Date.now());
    let outcome: JobOutcome;
    try {
      outcome = await runtime.processJobRetryingRaces(job, scope.signal, {
        deadline: scope.deadline,
      });
    } finally {
      scope.dispose();
    }
    logger.info('job done', { ...fields, outcome });
    metrics.addMetric('JobsDone', MetricUnit.Count, 1);
  } catch (error) {
    if (error instanceof JobMessageError) {
      // Retrying cannot help, and a FIFO group would wait behind it for every retry: drop it.
      logger.error('dropped a message that is not a job', { ...fields, error: error.message });
      metrics.addMetric('JobsDropped', MetricUnit.Count, 1);
      return;
    }
    if (isLostRace(error)) {
      logger.warn('job lost repeated races; SQS delivers it again', fields);
      metrics.addMetric('JobsRaced', MetricUnit.Count, 1);
    } else {
      logger.error('job failed; SQS delivers it again', {
        ...fields,
        receiveCount: record.attributes.ApproximateReceiveCount,
        error: describeError(error),
      });
      metrics.addMetric('JobsFailed', MetricUnit.Count, 1);
    }
    throw error;
  }
}
