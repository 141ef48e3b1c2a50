import { randomUUID } from 'node:crypto';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoReplyStore } from '../../../src/adapters/aws/dynamoReplyStore.js';
import { answer, FakeActionServer } from '../../helpers/fakeActionServer.js';
import { writeProject } from '../../helpers/project.js';
import { userMessage } from '../../helpers/runtime.js';
import { ACTION_TOKEN, bankProject } from '../actionServer/fixtures.js';
import {
  type FunctionsHarness,
  lambdaContext,
  type QueueHandler,
  SECRET_PREFIX,
  sqsEvent,
  startFunctionsHarness,
} from './harness.js';

describe('worker function with a Rasa action server', () => {
  let harness: FunctionsHarness;
  let server: FakeActionServer;
  let handler: QueueHandler;
  let replies: DynamoReplyStore;
  const secrets = mockClient(SecretsManagerClient);

  beforeAll(async () => {
    server = await FakeActionServer.start({
      action_check_balance: () => answer([{ event: 'slot', name: 'balance', value: 12.5 }]),
    });
    const files = bankProject(server.url);
    // A deployment's project has no .env: the token is a secret of the deployment.
    const dir = await writeProject({ ...files, '.env': undefined });
    secrets
      .on(GetSecretValueCommand, { SecretId: `${SECRET_PREFIX}ACTION_TOKEN` })
      .resolves({ Name: `${SECRET_PREFIX}ACTION_TOKEN`, SecretString: ACTION_TOKEN });
    harness = await startFunctionsHarness();
    replies = new DynamoReplyStore({
      client: harness.documents,
      tableName: harness.tableName,
      ttlSeconds: 3600,
      now: Date.now,
    });
    ({ handler } = await harness.worker(dir));
  });

  afterAll(async () => {
    secrets.restore();
    await harness?.close();
    await server?.close();
  });

  it('runs the action on the server with the token from the secret store, and keeps it out of the table', async () => {
    const job = userMessage(`bank-${randomUUID().slice(0, 8)}`, '/check_balance');
    const result = await handler(sqsEvent([job], { fifo: true }), lambdaContext('worker'));
    expect(result).toEqual({ batchItemFailures: [] });
    const texts = (await replies.read(job.conversation_id, job.turn_id)).messages.map(
      (m) => m.message.text,
    );
    expect(texts).toEqual(['Your checking balance is 12.5.', 'Can I help you with anything else?']);
    expect(server.callsOf('action_check_balance').map((c) => c.query.token)).toEqual([
      ACTION_TOKEN,
    ]);
    expect(JSON.stringify(await harness.scanTable())).not.toContain(ACTION_TOKEN);
  });
});
