import { Writable } from 'node:stream';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { DeleteMessageCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Job } from '../../../src/runtime/index.js';
import { GREET_FILES, writeProject } from '../../helpers/project.js';
import {
  type FunctionsHarness,
  lambdaContext,
  type QueueHandler,
  restEvent,
  SECRET_PREFIX,
  sqsEvent,
  startFunctionsHarness,
} from './harness.js';

const KEY = 'a2a-function-key';
const PUSH_KEY_SECRET = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:a2a-push-AbCdEf';

/** A response stream as Lambda gives a streaming handler: what it writes, and its status line. */
class ResponseStream extends Writable {
  readonly chunks: string[] = [];
  metadata: { statusCode?: number; headers?: Record<string, string> } = {};
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.chunks.push(chunk.toString('utf8'));
    done();
  }
  get text(): string {
    return this.chunks.join('');
  }
}

// What the Lambda runtime provides a streaming function with.
Object.assign(globalThis, {
  awslambda: {
    streamifyResponse: <T>(handler: T) => handler,
    HttpResponseStream: {
      from: (stream: ResponseStream, metadata: ResponseStream['metadata']) => {
        stream.metadata = metadata;
        return stream;
      },
    },
  },
});

type StreamingHandler = (
  event: APIGatewayProxyEvent,
  stream: ResponseStream,
  context: Context,
) => Promise<void>;

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
  const runQueuedJobs = async () => {
    const QueueUrl = harness.queues.jobsQueueUrl;
    const { Messages = [] } = await harness.sqs.send(
      new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }),
    );
    const jobs = Messages.map((m) => Job.parse(JSON.parse(m.Body ?? '')));
    if (jobs.length > 0) await worker(sqsEvent(jobs, { fifo: true }), lambdaContext('worker'));
    for (const { ReceiptHandle } of Messages) {
      await harness.sqs.send(new DeleteMessageCommand({ QueueUrl, ReceiptHandle }));
    }
    return jobs.length;
  };

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
    expect(await runQueuedJobs()).toBe(1);
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
    while ((await runQueuedJobs()) === 0) await new Promise((resolve) => setTimeout(resolve, 20));
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
