import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushToken } from '../../../src/a2a/index.js';
import { DynamoConversationStore } from '../../../src/adapters/aws/dynamoConversationStore.js';
import { initialState } from '../../../src/dialogue/index.js';
import { RUN_RECORD_VERSION } from '../../../src/runtime/index.js';
import {
  type FunctionsHarness,
  httpEvent,
  lambdaContext,
  startFunctionsHarness,
} from './harness.js';

const KEY_SECRET = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:a2a-push-AbCdEf';
const KEY = 'deployment-push-key';
const RUN = 'run-0123456789abcdef01234567';

type Handler = (
  event: APIGatewayProxyEventV2,
  context: ReturnType<typeof lambdaContext>,
) => Promise<APIGatewayProxyStructuredResultV2>;

describe('A2A push function', () => {
  let harness: FunctionsHarness;
  let handler: Handler;
  const secrets = mockClient(SecretsManagerClient);

  beforeAll(async () => {
    secrets
      .on(GetSecretValueCommand, { SecretId: KEY_SECRET })
      .resolves({ Name: 'a2a-push', SecretString: KEY });
    harness = await startFunctionsHarness({ A2A_PUSH_KEY_SECRET: KEY_SECRET });
    ({ handler } = await import('../../../functions/a2aPush.js'));
    // A conversation whose agent frame waits for the run of task t-1.
    const store = new DynamoConversationStore({
      client: harness.documents,
      tableName: harness.tableName,
      ttlSeconds: 3600,
      now: Date.now,
    });
    await store.commit({
      conversationId: 'alice',
      expectedVersion: 0,
      head: {
        version: 1,
        state: {
          ...initialState('alice', {}),
          stack: [
            { type: 'flow', frame_id: 'f1', flow_id: 'buy', step_id: 's', frame_type: 'regular' },
            {
              type: 'agent',
              frame_id: 'f2',
              agent_id: 'shop',
              flow_id: 'buy',
              step_id: 's',
              status: 'working',
              run_id: RUN,
            },
          ],
        },
        outbox: undefined,
        recentJobs: [],
        nextSeq: 0,
        runs: { [RUN]: 'job-1.a' },
        channel: 'rest',
      },
      runs: [
        {
          runId: RUN,
          jobId: 'job-1.a',
          agentId: 'shop',
          data: {
            version: RUN_RECORD_VERSION,
            runner: {
              agentId: 'shop',
              messageId: 'm',
              taskId: 't-1',
              polls: 0,
              push: true,
              shown: [],
            },
            failures: 0,
            frameId: 'f2',
            steps: 1,
            channel: 'rest',
            turnId: 'turn-1',
          },
        },
      ],
    });
  });

  afterAll(async () => {
    secrets.restore();
    await harness?.close();
  });

  const notify = (conversation: string, token: string, body: unknown) =>
    handler(
      httpEvent('POST', `/a2a/push/${conversation}/${RUN}`, {
        headers: { 'content-type': 'application/a2a+json', 'x-a2a-notification-token': token },
        body: JSON.stringify(body),
      }),
      lambdaContext('a2aPush'),
    );
  const completed = {
    statusUpdate: { taskId: 't-1', contextId: 'c', status: { state: 'TASK_STATE_COMPLETED' } },
  };

  it('queues an agent update for a notification with the run’s token', async () => {
    const result = await notify('alice', pushToken(KEY, 'alice', RUN), completed);
    expect(result.statusCode).toBe(202);
    const jobs = await harness.receiveJobs(harness.queues.jobsQueueUrl);
    expect(jobs).toEqual([
      {
        job: expect.objectContaining({
          type: 'agent_update',
          conversation_id: 'alice',
          run_id: RUN,
          frame_id: 'f2',
          turn_id: 'turn-1',
          update: { task_id: 't-1', state: 3 },
        }),
        groupId: 'alice',
      },
    ]);
  });

  it('refuses a notification with another token and queues nothing', async () => {
    const result = await notify('alice', pushToken('another key', 'alice', RUN), completed);
    expect(result.statusCode).toBe(401);
    expect(await harness.receiveJobs(harness.queues.jobsQueueUrl)).toEqual([]);
  });

  it('answers 404 for an unknown conversation or task, writing nothing', async () => {
    const other = { statusUpdate: { taskId: 't-2', status: { state: 'TASK_STATE_COMPLETED' } } };
    expect((await notify('alice', pushToken(KEY, 'alice', RUN), other)).statusCode).toBe(404);
    expect((await notify('bob', pushToken(KEY, 'bob', RUN), completed)).statusCode).toBe(404);
    expect(await harness.receiveJobs(harness.queues.jobsQueueUrl)).toEqual([]);
    expect((await harness.scanTable()).some((item) => String(item.pk).includes('bob'))).toBe(false);
  });
});
