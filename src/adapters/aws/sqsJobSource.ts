import type { Logger } from '../../resilience/index.js';
import type { JobSource, ReceivedJob } from '../../runtime/worker.js';
import type { SqsJobReceiver } from './sqsJobReceiver.js';

/** A queue as the local worker loop reads it; poison messages are logged and removed. */
export class SqsJobSource implements JobSource {
  constructor(
    private readonly receiver: SqsJobReceiver,
    private readonly queueUrl: string,
    private readonly logger: Logger,
    private readonly waitSeconds = 2,
  ) {}

  async receive(max: number, signal: AbortSignal): Promise<readonly ReceivedJob[]> {
    const messages = await this.receiver.receive({
      queueUrl: this.queueUrl,
      max,
      waitSeconds: this.waitSeconds,
      signal,
    });
    const jobs: ReceivedJob[] = [];
    for (const message of messages) {
      if (message.kind === 'poison') {
        this.logger.error('dropped a message that is not a job', {
          messageId: message.messageId,
          reason: message.reason,
        });
        await this.receiver.delete(this.queueUrl, message.receiptHandle);
        continue;
      }
      jobs.push({
        job: message.job,
        handle: message.receiptHandle,
        receiveCount: message.receiveCount,
      });
    }
    return jobs;
  }

  complete(handle: string): Promise<void> {
    return this.receiver.delete(this.queueUrl, handle);
  }

  retry(handle: string): Promise<void> {
    return this.receiver.release(this.queueUrl, handle);
  }
}
