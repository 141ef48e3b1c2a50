import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GREET_FILES, writeProject } from '../../helpers/project.js';
import {
  type FunctionsHarness,
  lambdaContext,
  provideStreamingRuntime,
  type QueueHandler,
  ResponseStream,
  restEvent,
  runQueuedJobs,
  SECRET_PREFIX,
  type StreamingHandler,
  startFunctionsHarness,
} from './harness.js';

const KEY = 'a2a-function-key';
const PUSH_KEY_SECRET = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:a2a-push-AbCdEf';

provideStreamingRuntime();

const PROJECT = {
  'config.yml': 'pipeline:\n  - name: CompactLLMCommandGenerator\n',
  'endpoints.yml': `a2a_server:
  description: Greets people.
  auth:
    api_key: \${A2A_KEY}
`,
  ...GREET_FILES,
};

describe('A2A server function', () => {
  let harness: FunctionsHarness;
  let handler: StreamingHandler;
  let worker: QueueHandler;
  const secrets = mockClient(SecretsManagerClient);

  beforeAll(async () => {
    secrets
      .on(GetSecretValueCommand, { SecretId: `${SECRET_PREFIX}A2A_KEY` })
      .resolves({ Name: 'a2a-key', SecretString: KEY })
      .on(GetSecretValueCommand, { SecretId: PUSH_KEY_SECRET })
      .resolves({ Name: 'a2a-push', SecretString: 'push-key' });
    harness = await startFunctionsHarness({ A2A_PUSH_KEY_SECRET: PUSH_KEY_SECRET });
    await harness.deploy(await writeProject({ ...PROJECT, '.env': `A2A_KEY=${KEY}\n` }));
    ({ handler } = (await import('../../../functions/a2aServer.js')) as unknown as {
      handler: StreamingHandler;
    });
    ({ handler: worker } = await import('../../../functions/worker.js'));
  });
  afterAll(async () => {
    secrets.restore();
    await harness?.close();
  });

  const call = async (event: APIGatewayProxyEvent) => {
    const stream = new ResponseStream();
    await handler(event, stream, lambdaContext('a2a-server'));
    return stream;
  };
  const rpc = (method: string, params: unknown, headers: Record<string, string> = {}) =>
    restEvent('POST', '/a2a', {
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      headers: { 'a2a-version': '1.0', 'x-api-key': KEY, ...headers },
    });
  /** Runs the jobs queued now on the worker, and removes them from the queue, as SQS would. */
  const runQueued = () => runQueuedJobs(harness, worker);

  it('answers the card with the interfaces at the stage callers used, whatever prefix they send', async () => {
    const answer = await call(
      restEvent('GET', '/.well-known/agent-card.json', {
        // A caller's own prefix does not move the URLs the card names.
        headers: { 'a2a-version': '1.0', 'X-Forwarded-Prefix': '/elsewhere' },
      }),
    );
    expect(answer.metadata.statusCode).toBe(200);
    expect(JSON.parse(answer.text)).toMatchObject({
      description: 'Greets people.',
      supportedInterfaces: [
        { url: 'https://a2a.example.com/stream/a2a', protocolVersion: '1.0' },
        { url: 'https://a2a.example.com/stream/a2a', protocolVersion: '0.3' },
      ],
    });
  });

  it('refuses a caller without the API key', async () => {
    const answer = await call(rpc('GetTask', { id: 'x' }, { 'x-api-key': 'guessed' }));
    expect(answer.metadata.statusCode).toBe(401);
    expect(JSON.parse(answer.text)).toEqual({ error: 'the API key is wrong' });
  });

  it('queues a message as a job, and streams the next turn the worker runs', async () => {
    const message = (text: string, ids: Record<string, string> = {}) => ({
      message: { messageId: `m-${text}`, role: 'ROLE_USER', parts: [{ text }], ...ids },
      configuration: { returnImmediately: true },
    });
    const sent = await call(rpc('SendMessage', message('/greet')));
    const task = JSON.parse(sent.text).result.task;
    expect(task.status.state).toBe('TASK_STATE_SUBMITTED');
    expect(await runQueued()).toBe(1);
    const read = JSON.parse((await call(rpc('GetTask', { id: task.id }))).text).result;
    expect(read.status).toMatchObject({
      state: 'TASK_STATE_INPUT_REQUIRED',
      message: { parts: [{ text: 'What is your name?' }] },
    });

    const streaming = new ResponseStream();
    const answered = handler(
      rpc('SendStreamingMessage', message('/SetSlots(name=Ada)', { taskId: task.id })),
      streaming,
      lambdaContext('a2a-server'),
    );
    while ((await runQueued()) === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    await answered;
    expect(streaming.metadata).toMatchObject({
      statusCode: 200,
      headers: { 'Content-Type': 'text/event-stream' },
    });
    const events = streaming.text
      .split('\n\n')
      .filter((e) => e.startsWith('data: '))
      .map((e) => JSON.parse(e.slice(6)).result);
    expect(Object.keys(events[0] ?? {})).toEqual(['task']);
    expect(events.at(-1)?.statusUpdate.status).toMatchObject({
      state: 'TASK_STATE_COMPLETED',
      message: { parts: [{ text: 'Hello, Ada!' }, expect.anything()] },
    });
  });
});
