import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type {
  APIGatewayProxyEventV2,
  APIGatewayProxyStructuredResultV2,
  Context,
} from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GREET_FILES, writeProject } from '../../helpers/project.js';
import {
  type FunctionsHarness,
  httpEvent,
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

const TOKEN_SECRET = `${SECRET_PREFIX}SWITCHBOARD_REST_TOKEN`;
const TOKEN = 'web-chat-token';

provideStreamingRuntime();

type HttpHandler = (
  event: APIGatewayProxyEventV2,
  context: Context,
) => Promise<APIGatewayProxyStructuredResultV2>;

/** The `message` events of a stream: their ids and messages. */
function messagesOf(text: string): { id: string; text?: string; buttons?: unknown[] }[] {
  return text
    .split('\n\n')
    .filter((frame) => frame.startsWith('event: message\n'))
    .map((frame) => {
      const data = JSON.parse(frame.split('\ndata: ')[1] ?? '{}');
      const id = /\nid: (\d+)/.exec(frame)?.[1] ?? '';
      expect(data.id).toBe(id);
      return { id, ...data.message };
    });
}

/** The web chat deployed: messages posted to the webhook function, read back from its stream. */
describe('web chat functions', () => {
  let harness: FunctionsHarness;
  let stream: StreamingHandler;
  let webhook: HttpHandler;
  let worker: QueueHandler;
  const secrets = mockClient(SecretsManagerClient);

  beforeAll(async () => {
    secrets
      .on(GetSecretValueCommand, { SecretId: TOKEN_SECRET })
      .resolves({ Name: TOKEN_SECRET, SecretString: TOKEN });
    harness = await startFunctionsHarness({
      REST_TOKEN_SECRET: TOKEN_SECRET,
      CHANNELS: JSON.stringify({ socketio: { user_message_evt: 'user_uttered' } }),
      STREAM_LIMIT_MS: '1500',
    });
    await harness.deploy(await writeProject(GREET_FILES));
    ({ handler: stream } = (await import('../../../functions/webChat.js')) as unknown as {
      handler: StreamingHandler;
    });
    ({ handler: webhook } = (await import('../../../functions/webhook.js')) as unknown as {
      handler: HttpHandler;
    });
    ({ handler: worker } = await import('../../../functions/worker.js'));
  });
  afterAll(async () => {
    secrets.restore();
    await harness?.close();
  });

  const runQueued = () => runQueuedJobs(harness, worker);
  const post = (sender: string, message: string) =>
    webhook(
      httpEvent('POST', '/webhooks/socketio/webhook', {
        body: JSON.stringify({ sender, message }),
        headers: { authorization: `Bearer ${TOKEN}` },
      }),
      lambdaContext('webhook'),
    );
  const read = async (sender: string, headers: Record<string, string> = {}) => {
    const response = new ResponseStream();
    await stream(
      restEvent('GET', `/webhooks/socketio/stream/${sender}`, {
        headers: { authorization: `Bearer ${TOKEN}`, ...headers },
      }),
      response,
      lambdaContext('web-chat'),
    );
    return response;
  };

  it('takes a message at the webhook, and streams the bot messages the worker commits, each with its id', async () => {
    const accepted = await post('browser-1', '/greet');
    expect(accepted.statusCode).toBe(202);
    expect(await runQueued()).toBe(1);

    const first = await read('browser-1', { 'last-event-id': '-1' });
    expect(first.metadata).toMatchObject({
      statusCode: 200,
      headers: { 'content-type': 'text/event-stream' },
    });
    const said = messagesOf(first.text);
    expect(said.map((m) => m.text)).toEqual(['What is your name?']);

    // A client back with the id of the last message it got hears only what came after it.
    await post('browser-1', '/SetSlots(name=Ada)');
    await runQueued();
    const again = await read('browser-1', { 'last-event-id': said[0]?.id ?? '' });
    const after = messagesOf(again.text).map((m) => m.text);
    expect(after[0]).toBe('Hello, Ada!');
    expect(after).not.toContain('What is your name?');
  });

  it('starts a stream with what is said from then on when the client names no event', async () => {
    await post('browser-2', '/greet');
    await runQueued();
    const response = new ResponseStream();
    const reading = stream(
      restEvent('GET', '/webhooks/socketio/stream/browser-2', {
        headers: { authorization: `Bearer ${TOKEN}` },
      }),
      response,
      lambdaContext('web-chat'),
    );
    // Answered (its start read) before the next message comes.
    while (response.metadata.statusCode === undefined) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await post('browser-2', '/SetSlots(name=Grace)');
    await runQueued();
    await reading;
    const said = messagesOf(response.text).map((m) => m.text);
    expect(said[0]).toBe('Hello, Grace!');
    expect(said).not.toContain('What is your name?');
  });

  it('refuses a stream without the token, a platform conversation and an id that is no event', async () => {
    const bare = new ResponseStream();
    await stream(restEvent('GET', '/webhooks/socketio/stream/browser-1'), bare, lambdaContext('w'));
    expect(bare.metadata.statusCode).toBe(401);
    expect((await read('slack:C1:U1')).metadata.statusCode).toBe(400);
    const odd = await read('browser-1', { 'last-event-id': 'yesterday' });
    expect(odd.metadata.statusCode).toBe(400);
    expect(odd.text).toContain('Last-Event-ID');
    expect((await post('telegram:42', 'hi')).statusCode).toBe(400);
  });
});
