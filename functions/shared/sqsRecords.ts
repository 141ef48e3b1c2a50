import type { SQSRecord } from 'aws-lambda';
import { z } from 'zod';
// The module itself, not the runtime's barrel: the delay function bundles no dialogue engine.
import { Job } from '../../src/runtime/jobs.js';

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
  let data: unknown;
  try {
    data = JSON.parse(record.body);
  } catch {
    // The parser's message quotes the body, which is not ours to log.
    throw new JobMessageError(record.messageId, 'the body is not JSON');
  }
  const parsed = Job.safeParse(data);
  if (parsed.success) return parsed.data;
  throw new JobMessageError(record.messageId, z.prettifyError(parsed.error).replaceAll('\n', '; '));
}
