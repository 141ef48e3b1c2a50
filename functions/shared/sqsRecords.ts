import type { SQSRecord } from 'aws-lambda';
import { SwitchboardError } from '../../src/resilience/index.js';
// The module itself, not the runtime's barrel: the delay function bundles no dialogue engine.
import { decodeJob, type Job } from '../../src/runtime/jobs.js';

/**
 * A queue message that is not a job. The message names the SQS message, never its body.
 * Code `JOB_MESSAGE_INVALID`.
 */
export class JobMessageError extends SwitchboardError {
  override readonly name = 'JobMessageError';
  override readonly code = 'JOB_MESSAGE_INVALID';
  constructor(
    readonly messageId: string,
    reason: string,
  ) {
    super(`message ${messageId} is not a job: ${reason}`);
  }
}

/** The job an SQS record carries. */
export function jobOf(record: SQSRecord): Job {
  const decoded = decodeJob(record.body);
  if (decoded.ok) return decoded.job;
  throw new JobMessageError(record.messageId, decoded.reason);
}
