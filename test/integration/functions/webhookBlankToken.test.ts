import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { slackSignatureHeaders } from '../../helpers/platformSignatures.js';
import {
  type FunctionsHarness,
  httpEvent,
  lambdaContext,
  SECRET_PREFIX,
  startFunctionsHarness,
} from './harness.js';

const TOKEN_SECRET = `${SECRET_PREFIX}SWITCHBOARD_REST_TOKEN`;
const SIGNING_SECRET = `${SECRET_PREFIX}SLACK_SIGNING_SECRET`;
const BLANK = ' \t ';

type Handler = (
  event: APIGatewayProxyEventV2,
  context: ReturnType<typeof lambdaContext>,
) => Promise<APIGatewayProxyStructuredResultV2>;

describe('webhook function with a blank token secret', () => {
  let harness: FunctionsHarness;
  let handler: Handler;
  const secrets = mockClient(SecretsManagerClient);
  const call = (event: APIGatewayProxyEventV2) => handler(event, lambdaContext('webhook'));

  beforeAll(async () => {
    secrets
      .on(GetSecretValueCommand, { SecretId: TOKEN_SECRET })
      .resolves({ Name: TOKEN_SECRET, SecretString: BLANK })
      .on(GetSecretValueCommand, { SecretId: SIGNING_SECRET })
      .resolves({ Name: SIGNING_SECRET, SecretString: BLANK });
    harness = await startFunctionsHarness({
      REST_TOKEN_SECRET: TOKEN_SECRET,
      REPLY_WAIT_MS: '0',
      POWERTOOLS_LOG_LEVEL: 'ERROR',
      CHANNELS: JSON.stringify({
        slack: {
          slack_token: { secret: 'SLACK_TOKEN' },
          slack_signing_secret: { secret: 'SLACK_SIGNING_SECRET' },
        },
      }),
    });
    ({ handler } = await import('../../../functions/webhook.js'));
  });

  afterAll(async () => {
    secrets.restore();
    await harness?.close();
  });

  it('answers 503 instead of serving without authentication, and logs the secret by name', async () => {
    const lines: string[] = [];
    const record = (chunk: unknown) => {
      lines.push(String(chunk));
      return true;
    };
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(record);
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(record);
    let results: APIGatewayProxyStructuredResultV2[];
    try {
      results = [
        await call(
          httpEvent('POST', '/webhooks/rest/webhook', {
            body: JSON.stringify({ sender: 'ada', message: 'hello' }),
          }),
        ),
        await call(httpEvent('GET', '/conversations/ada/tracker')),
        await call(httpEvent('GET', '/health')),
      ];
    } finally {
      out.mockRestore();
      err.mockRestore();
    }
    expect(results.map((r) => r.statusCode)).toEqual([503, 503, 200]);
    expect(JSON.parse(String(results[0]?.body))).toEqual({
      error: 'the REST channel is not configured',
    });
    const errors = lines.filter((line) => line.includes('"level":"ERROR"'));
    expect(errors).toHaveLength(2);
    for (const line of errors) {
      expect(line).toContain('the REST token secret is empty');
      expect(line).toContain(TOKEN_SECRET);
      expect(line).not.toContain(JSON.stringify(BLANK));
    }
    expect(await harness.receiveJobs(harness.queues.jobsQueueUrl)).toEqual([]);
  });

  it('answers 503 to a Slack request signed with a blank signing secret, never taking it as a key', async () => {
    const body = JSON.stringify({ type: 'url_verification', challenge: 'forged' });
    const timestamp = Math.floor(Date.now() / 1000);
    const errors: string[] = [];
    const record = (chunk: unknown) => {
      errors.push(String(chunk));
      return true;
    };
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(record);
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(record);
    let result: APIGatewayProxyStructuredResultV2;
    try {
      result = await call(
        httpEvent('POST', '/webhooks/slack/webhook', {
          body,
          headers: slackSignatureHeaders(body, timestamp, BLANK),
        }),
      );
    } finally {
      out.mockRestore();
      err.mockRestore();
    }
    expect(result.statusCode).toBe(503);
    expect(JSON.parse(String(result.body))).toEqual({ error: 'the channel is not configured' });
    expect(errors.join('')).toContain(SIGNING_SECRET.replace(SECRET_PREFIX, ''));
  });
});
