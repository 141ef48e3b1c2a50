import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type FunctionsHarness,
  httpEvent,
  lambdaContext,
  SECRET_PREFIX,
  startFunctionsHarness,
} from './harness.js';

const TOKEN_SECRET = `${SECRET_PREFIX}SWITCHBOARD_REST_TOKEN`;
const TOKEN = 'rest-token-for-tests';
const auth = { authorization: `Bearer ${TOKEN}` };

type Handler = (
  event: APIGatewayProxyEventV2,
  context: ReturnType<typeof lambdaContext>,
) => Promise<APIGatewayProxyStructuredResultV2>;

describe('webhook function', () => {
  let harness: FunctionsHarness;
  let handler: Handler;
  const secrets = mockClient(SecretsManagerClient);
  const call = (event: APIGatewayProxyEventV2) => handler(event, lambdaContext('webhook'));
  const bodyOf = (result: APIGatewayProxyStructuredResultV2): unknown =>
    JSON.parse(String(result.body));

  beforeAll(async () => {
    secrets
      .on(GetSecretValueCommand, { SecretId: TOKEN_SECRET })
      .resolves({ Name: TOKEN_SECRET, SecretString: TOKEN });
    harness = await startFunctionsHarness({
      REST_TOKEN_SECRET: TOKEN_SECRET,
      REPLY_WAIT_MS: '200',
    });
    ({ handler } = await import('../../../functions/webhook.js'));
  });

  afterAll(async () => {
    secrets.restore();
    await harness?.close();
  });

  it('answers the health check with 200 and no token', async () => {
    const result = await call(httpEvent('GET', '/health'));
    expect(result.statusCode).toBe(200);
    expect(result.headers).toEqual({ 'content-type': 'application/json' });
    expect(bodyOf(result)).toEqual({ status: 'ok' });
  });

  it("answers GET /version with Switchboard's version and no token", async () => {
    const result = await call(httpEvent('GET', '/version'));
    expect(result.statusCode).toBe(200);
    expect(bodyOf(result)).toEqual({
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      minimum_compatible_version: '0.1.0',
    });
  });

  it('answers HEAD on the health check and the tracker like GET, without a body', async () => {
    const health = await call(httpEvent('HEAD', '/health'));
    expect([health.statusCode, health.body]).toEqual([200, undefined]);
    const tracker = await call(
      httpEvent('HEAD', '/conversations/nobody/tracker', { headers: auth }),
    );
    expect([tracker.statusCode, tracker.body]).toEqual([200, undefined]);
  });

  it('refuses a tracker sender id over 128 characters with 400 and a reason', async () => {
    const result = await call(
      httpEvent('GET', `/conversations/${'s'.repeat(3000)}/tracker`, { headers: auth }),
    );
    expect(result.statusCode).toBe(400);
    expect(bodyOf(result)).toEqual({
      error: 'the sender id in the path must be at most 128 characters',
    });
  });

  it('refuses a malformed body with 400 and a reason, and writes nothing', async () => {
    const result = await call(
      httpEvent('POST', '/webhooks/rest/webhook', { body: '{"sender": "ada"', headers: auth }),
    );
    expect(result.statusCode).toBe(400);
    expect(bodyOf(result)).toEqual({ error: expect.stringMatching(/JSON/) });
    expect(await harness.scanTable()).toEqual([]);
    expect(await harness.receiveJobs(harness.queues.jobsQueueUrl)).toEqual([]);
  });

  it('refuses a message without the bearer token the secret holds', async () => {
    const body = JSON.stringify({ sender: 'ada', message: 'hello' });
    const missing = await call(httpEvent('POST', '/webhooks/rest/webhook', { body }));
    const wrong = await call(
      httpEvent('POST', '/webhooks/rest/webhook', {
        body,
        headers: { authorization: 'Bearer nope' },
      }),
    );
    expect([missing.statusCode, wrong.statusCode]).toEqual([401, 401]);
    expect(await harness.receiveJobs(harness.queues.jobsQueueUrl)).toEqual([]);
  });

  it('queues a message as a job of its conversation and answers after the reply wait', async () => {
    const result = await call(
      httpEvent('POST', '/webhooks/rest/webhook', {
        body: JSON.stringify({ sender: 'ada', message: 'I want a test drive' }),
        headers: auth,
      }),
    );
    expect(result.statusCode).toBe(200);
    // No worker runs here: the turn does not settle within the wait.
    expect(bodyOf(result)).toEqual([]);
    const queued = await harness.receiveJobs(harness.queues.jobsQueueUrl);
    expect(queued).toEqual([
      {
        groupId: 'ada',
        job: expect.objectContaining({
          type: 'user_message',
          conversation_id: 'ada',
          text: 'I want a test drive',
          channel: 'rest',
        }),
      },
    ]);
  });

  it('pages the tracker with the query string API Gateway passes apart from the path', async () => {
    const refused = await call(
      httpEvent('GET', '/conversations/nobody/tracker?limit=0', { headers: auth }),
    );
    expect(refused.statusCode).toBe(400);
    expect(bodyOf(refused)).toEqual({ error: 'limit must be one integer from 1 to 2000' });
  });

  it('reads a tracker with the token', async () => {
    const result = await call(httpEvent('GET', '/conversations/nobody/tracker', { headers: auth }));
    expect(result.statusCode).toBe(200);
    expect(bodyOf(result)).toMatchObject({ sender_id: 'nobody', events: [] });
  });

  it("reads a tracker with the token in Rasa's query parameter, and refuses a wrong one", async () => {
    const path = '/conversations/nobody/tracker';
    const right = await call(httpEvent('GET', `${path}?token=${TOKEN}`));
    const wrong = await call(httpEvent('GET', `${path}?token=nope`));
    expect([right.statusCode, wrong.statusCode]).toEqual([200, 401]);
  });
});
