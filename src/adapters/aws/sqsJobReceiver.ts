import {
  ChangeMessageVisibilityCommand,
  DeleteMessageCommand,
  ReceiveMessageCommand,
  type ReceiveMessageCommandOutput,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import { decodeJob, type Job } from '../../runtime/jobs.js';

/** A received message: a job, or a poison message to delete and report (its body is not kept). */
export type ReceivedMessage =
  | { kind: 'job'; job: Job; messageId: string; receiptHandle: string; receiveCount: number }
  | {
      kind: 'poison';
      reason: string;
      messageId: string;
      receiptHandle: string;
      receiveCount: number;
    };

export interface ReceiveOptions {
  readonly queueUrl: string;
  /** 1–10 messages. */
  readonly max: number;
  /** Long-polling wait, 0–20 seconds. */
  readonly waitSeconds: number;
  /** Ends a long poll early; an aborted receive returns no messages. */
  readonly signal?: AbortSignal;
}

/** Receives, deletes and releases job messages: the polling side of the local worker. */
export class SqsJobReceiver {
  constructor(private readonly client: SQSClient) {}

  async receive(options: ReceiveOptions): Promise<ReceivedMessage[]> {
    let output: ReceiveMessageCommandOutput;
    try {
      output = await this.client.send(
        new ReceiveMessageCommand({
          QueueUrl: options.queueUrl,
          MaxNumberOfMessages: options.max,
          WaitTimeSeconds: options.waitSeconds,
          MessageSystemAttributeNames: ['ApproximateReceiveCount'],
        }),
        { abortSignal: options.signal },
      );
    } catch (error) {
      if (options.signal?.aborted) return [];
      throw error;
    }
    return (output.Messages ?? []).flatMap((message) => {
      if (!message.ReceiptHandle) return [];
      const base = {
        messageId: message.MessageId ?? '',
        receiptHandle: message.ReceiptHandle,
        receiveCount: Number(message.Attributes?.ApproximateReceiveCount ?? 1),
      };
      const parsed = decodeJob(message.Body);
      return [
        parsed.ok
          ? { kind: 'job' as const, job: parsed.job, ...base }
          : { kind: 'poison' as const, reason: parsed.reason, ...base },
      ];
    });
  }

  async delete(queueUrl: string, receiptHandle: string): Promise<void> {
    await this.client.send(
      new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: receiptHandle }),
    );
  }

  /** Makes the message visible again at once, for another attempt. */
  async release(queueUrl: string, receiptHandle: string): Promise<void> {
    await this.client.send(
      new ChangeMessageVisibilityCommand({
        QueueUrl: queueUrl,
        ReceiptHandle: receiptHandle,
        VisibilityTimeout: 0,
      }),
    );
  }
}
