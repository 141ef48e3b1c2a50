import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { SecretsManagerSecretStore } from '../../src/adapters/aws/secretsManagerStore.js';
import type { SqsJobQueueOptions } from '../../src/adapters/aws/sqsJobQueue.js';
import { readFunctionEnv } from './env.js';
import { traced } from './observability.js';

// Built once per container. Endpoints come from the SDK's own settings (AWS_ENDPOINT_URL_*).

/** The function's settings. */
export const env = readFunctionEnv(process.env);

const now = (): number => Date.now();
const dynamo = traced(new DynamoDBClient({}));
const documents = DynamoDBDocumentClient.from(dynamo, {
  marshallOptions: { removeUndefinedValues: true },
});
// The endpoint decides, not the queue URL's host: an AWS_ENDPOINT_URL_SQS override then holds.
const sqs = traced(new SQSClient({ useQueueUrlAsEndpoint: false }));

/** The conversation table's client and settings, for the stores (see `stores.ts`). */
export const table = {
  client: documents,
  tableName: env.TABLE_NAME,
  ttlSeconds: env.CONVERSATION_TTL_DAYS * 24 * 3600,
  now,
};

/** The SQS job queues: due jobs to the FIFO queue, later ones to the delay queue. */
export const queueOptions: SqsJobQueueOptions = {
  client: sqs,
  jobsQueueUrl: env.JOBS_QUEUE_URL,
  delayQueueUrl: env.DELAY_QUEUE_URL,
  now,
};
/** Secrets under the deployment's prefix (credentials `${VAR}` of the project, the model key). */
export const projectSecrets = new SecretsManagerSecretStore({ prefix: env.SECRET_PREFIX });
/** Secrets by their full name. */
export const namedSecrets = new SecretsManagerSecretStore();

/**
 * The key that signs A2A push tokens, read once per container from the secret `name` (the same
 * for the worker, which registers tokens, and the receiver, which checks them).
 */
export function pushKeyOf(name: string | undefined): (() => Promise<string>) | undefined {
  if (!name) return undefined;
  let key: Promise<string> | undefined;
  return () => {
    key ??= namedSecrets.get(name);
    // A failed read is not kept: the next notification reads again.
    key.catch(() => {
      key = undefined;
    });
    return key;
  };
}
