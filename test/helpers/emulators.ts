import { randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import {
  ensureQueues,
  ensureTable,
  type LocalQueues,
  localAwsConfig,
  startDynalite,
  startFauxqs,
} from '../../src/adapters/local/emulators.js';

/** dynalite and fauxqs on loopback, with a table and the job queues under a unique prefix. */
export interface Emulators {
  readonly dynamo: DynamoDBClient;
  readonly documents: DynamoDBDocumentClient;
  readonly sqs: SQSClient;
  readonly tableName: string;
  readonly queues: LocalQueues;
  readonly prefix: string;
  close(): Promise<void>;
}

/** Starts both emulators (call in `beforeAll`, close in `afterAll`). */
export async function startEmulators(
  options: { maxReceiveCount?: number; visibilityTimeoutSeconds?: number } = {},
): Promise<Emulators> {
  process.env.AWS_EC2_METADATA_DISABLED = 'true';
  const [dynalite, fauxqs] = await Promise.all([startDynalite(), startFauxqs()]);
  const prefix = `t${randomUUID().slice(0, 8)}`;
  const dynamo = new DynamoDBClient(localAwsConfig(dynalite.endpoint));
  const sqs = new SQSClient(localAwsConfig(fauxqs.endpoint));
  const tableName = `${prefix}-conversations`;
  await ensureTable(dynamo, tableName);
  const queues = await ensureQueues(sqs, {
    prefix,
    maxReceiveCount: options.maxReceiveCount ?? 5,
    ...(options.visibilityTimeoutSeconds !== undefined
      ? { visibilityTimeoutSeconds: options.visibilityTimeoutSeconds }
      : {}),
  });
  return {
    dynamo,
    documents: DynamoDBDocumentClient.from(dynamo),
    sqs,
    tableName,
    queues,
    prefix,
    async close() {
      dynamo.destroy();
      sqs.destroy();
      await Promise.all([dynalite.close(), fauxqs.close()]);
    },
  };
}
