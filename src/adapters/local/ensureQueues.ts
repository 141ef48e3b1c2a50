import { CreateQueueCommand, GetQueueAttributesCommand, type SQSClient } from '@aws-sdk/client-sqs';

/** Options of the local job queues. */
export interface QueueOptions {
  /** Queue names start with it: `<prefix>-jobs.fifo`, `<prefix>-delayed`, … */
  readonly prefix: string;
  /** Receives before a message moves to its dead-letter queue (default 5). */
  readonly maxReceiveCount?: number;
  /** Seconds a received message stays hidden (default 360, as the deployed queues). */
  readonly visibilityTimeoutSeconds?: number;
}

/** The URLs of the job queues and their dead-letter queues. */
export interface LocalQueues {
  readonly jobsQueueUrl: string;
  readonly jobsDlqUrl: string;
  readonly delayQueueUrl: string;
  readonly delayDlqUrl: string;
}

/** Creates (idempotently) the FIFO jobs queue and the standard delay queue, each with a DLQ. */
export async function ensureQueues(client: SQSClient, options: QueueOptions): Promise<LocalQueues> {
  const { prefix } = options;
  const maxReceiveCount = options.maxReceiveCount ?? 5;
  const visibility = String(options.visibilityTimeoutSeconds ?? 360);
  const fifo = { FifoQueue: 'true', ContentBasedDeduplication: 'false' };

  const jobsDlqUrl = await createQueue(client, `${prefix}-jobs-dlq.fifo`, fifo);
  const delayDlqUrl = await createQueue(client, `${prefix}-delayed-dlq`, {});
  const redrive = async (dlqUrl: string) =>
    JSON.stringify({ deadLetterTargetArn: await queueArn(client, dlqUrl), maxReceiveCount });

  const jobsQueueUrl = await createQueue(client, `${prefix}-jobs.fifo`, {
    ...fifo,
    VisibilityTimeout: visibility,
    RedrivePolicy: await redrive(jobsDlqUrl),
  });
  const delayQueueUrl = await createQueue(client, `${prefix}-delayed`, {
    VisibilityTimeout: visibility,
    RedrivePolicy: await redrive(delayDlqUrl),
  });
  return { jobsQueueUrl, jobsDlqUrl, delayQueueUrl, delayDlqUrl };
}

async function createQueue(
  client: SQSClient,
  name: string,
  attributes: Record<string, string>,
): Promise<string> {
  const { QueueUrl } = await client.send(
    new CreateQueueCommand({ QueueName: name, Attributes: attributes }),
  );
  if (!QueueUrl) throw new Error(`creating queue ${name} returned no URL`);
  return QueueUrl;
}

async function queueArn(client: SQSClient, queueUrl: string): Promise<string> {
  const { Attributes } = await client.send(
    new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['QueueArn'] }),
  );
  const arn = Attributes?.QueueArn;
  if (!arn) throw new Error(`queue ${queueUrl} has no ARN`);
  return arn;
}
