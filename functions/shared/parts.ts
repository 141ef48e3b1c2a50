import { randomUUID } from 'node:crypto';
import { DynamoConversationStore } from '../../src/adapters/aws/dynamoConversationStore.js';
import { DynamoReplyStore } from '../../src/adapters/aws/dynamoReplyStore.js';
import { SqsJobQueue } from '../../src/adapters/aws/sqsJobQueue.js';
import { standardChannels } from '../../src/channels/standard.js';
import { sleep } from '../../src/resilience/index.js';
import type { RuntimeParts } from '../../src/runtime/index.js';
import { env, namedSecrets, queueOptions, table } from './aws.js';

/**
 * The AWS adapters every function's runtime is built from (once per container): conversations
 * and replies in DynamoDB, jobs in SQS, the standard channels, and the REST token from Secrets
 * Manager when the deployment names a secret for it.
 */
export const awsRuntimeParts: RuntimeParts = {
  store: new DynamoConversationStore(table),
  queue: new SqsJobQueue(queueOptions),
  replies: new DynamoReplyStore(table),
  channels: standardChannels,
  now: table.now,
  newId: randomUUID,
  sleep: (ms) => sleep(ms),
  http: {
    replyWaitMs: env.REPLY_WAIT_MS,
    authToken: async () =>
      env.REST_TOKEN_SECRET === undefined ? undefined : namedSecrets.get(env.REST_TOKEN_SECRET),
  },
};
