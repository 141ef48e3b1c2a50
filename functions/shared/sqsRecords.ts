import type { SQSRecord } from 'aws-lambda';
// The module itself, not the runtime's barrel: the delay function bundles no dialogue engine.
import { decodeJob, type Job } from '../../src/runtime/jobs.js';

/** A queue message that is not a job. The message names the SQS message, never its body. */
export class JobMessageError extends Error {
  override readonly name = 'JobMessageError';
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
