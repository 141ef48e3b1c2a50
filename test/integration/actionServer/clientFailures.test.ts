import {
  createServer,
  type IncomingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ActionServerClient,
  ActionServerError,
  ActionServerUnavailableError,
  actionServerActions,
  MAX_ANSWER_BYTES,
} from '../../../src/actionServer/index.js';
import { assistantFrom } from '../../helpers/dialogue.js';
import { secretsOf } from '../mcp/fixtures.js';
import { ACTION_TOKEN, actionContext, bankProject } from './fixtures.js';

const secrets = secretsOf({ ACTION_TOKEN });

interface Received {
  readonly headers: IncomingHttpHeaders;
  // biome-ignore lint/suspicious/noExplicitAny: the body is whatever the client sent.
  readonly body: any;
}

/** How the server answers one request: it writes the response itself, or never answers. */
type Answer = ((response: ServerResponse) => void) | 'hang';

/** A webhook on loopback that answers each request with the next scripted answer. */
class ScriptedServer {
  readonly received: Received[] = [];
  private readonly answers: Answer[] = [];
  private readonly sockets = new Set<Socket>();
  url = '';
  private readonly server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      this.received.push({
        headers: request.headers,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
      });
      const answer = this.answers.shift() ?? ((r) => sendJson(r, 200, {}));
      if (answer !== 'hang') answer(response);
    });
  });

  async start(): Promise<void> {
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as { port: number };
    this.url = `http://127.0.0.1:${port}/webhook`;
  }

  next(...answers: Answer[]): void {
    this.answers.push(...answers);
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

const raw =
  (status: number, text: string, headers: Record<string, string> = {}) =>
  (response: ServerResponse) => {
    response.writeHead(status, { 'content-type': 'application/json', ...headers });
    response.end(text);
  };

describe('a call to a Rasa action server over HTTP', () => {
  const server = new ScriptedServer();

  beforeAll(async () => {
    await server.start();
  });

  afterAll(async () => {
    await server.close();
  });

  async function port(endpoint = 'timeout: 10\n') {
    return actionServerActions({
      assistant: await assistantFrom(bankProject(server.url, endpoint)),
      secrets,
    });
  }

  async function failureOf(
    endpoint?: string,
    // biome-ignore lint/suspicious/noExplicitAny: the failure's fields are read as each test expects.
  ): Promise<{ failure: any; tries: number }> {
    const before = server.received.length;
    const failure = await (await port(endpoint))
      .run('action_check_balance', actionContext())
      .catch((e) => e);
    return { failure, tries: server.received.length - before };
  }

  it('asks for JSON, names Rasa 3.14.0 and carries an Idempotency-Key header', async () => {
    await (await port()).run('action_check_balance', actionContext());
    const { headers, body } = server.received.at(-1) as Received;
    expect(headers.accept).toBe('application/json');
    expect(headers['content-type']).toBe('application/json');
    expect(headers['idempotency-key']).toMatch(/^[\w-]{32}$/);
    expect(body.version).toBe('3.14.0');
  });

  it('answers an action it is given directly as the events and responses the server sent', async () => {
    server.next(raw(200, '{"events": [], "responses": [{"text": "hi"}]}'));
    const client = new ActionServerClient({
      endpoint: { url: server.url },
      secrets,
    });
    expect(await client.post('action_check_balance', { next_action: 'x' }, {})).toEqual({
      kind: 'answer',
      answer: { events: [], responses: [{ text: 'hi' }] },
    });
  });

  it('takes an answer of whitespace only as an action that did nothing', async () => {
    server.next(raw(200, '  \n'));
    expect(await (await port()).run('action_check_balance', actionContext())).toEqual({});
  });

  it('refuses an answer of a 300, as a redirect it does not follow', async () => {
    server.next(raw(300, '{"events": []}', { location: 'http://127.0.0.1:1/elsewhere' }));
    const { failure, tries } = await failureOf();
    expect(failure).toBeInstanceOf(ActionServerError);
    expect(failure.status).toBe(300);
    expect(failure.message).toContain('redirected the call (HTTP 300)');
    expect(tries).toBe(1);
  });

  it('fails at once on a 403, saying only its status', async () => {
    server.next(raw(403, '{"error": "forbidden"}'));
    const { failure, tries } = await failureOf();
    expect(failure).toBeInstanceOf(ActionServerError);
    expect(failure.name).toBe('ActionServerError');
    expect(failure.code).toBe('ACTION_SERVER_REFUSED');
    expect(failure.status).toBe(403);
    expect(failure.message).toBe(`the action server at ${server.url} answered HTTP 403`);
    expect(tries).toBe(1);
  });

  it('tries a 502 again', async () => {
    server.next(raw(502, '{}'));
    const before = server.received.length;
    expect(await (await port()).run('action_check_balance', actionContext())).toEqual({});
    expect(server.received.length - before).toBe(2);
  });

  it('refuses an answer longer than the limit, naming the server', async () => {
    server.next(raw(200, `{"events": [], "pad": "${'x'.repeat(MAX_ANSWER_BYTES)}"}`));
    const { failure, tries } = await failureOf();
    expect(failure).toBeInstanceOf(ActionServerError);
    expect(failure.message).toBe(
      `the action server at ${server.url} answered with more than ${MAX_ANSWER_BYTES} bytes`,
    );
    expect(failure.status).toBe(200);
    expect(tries).toBe(1);
  });

  it('keeps the parse error as the cause of a malformed answer', async () => {
    server.next(raw(200, '{"events": ['));
    const { failure } = await failureOf();
    expect(failure).toBeInstanceOf(ActionServerError);
    expect(failure.status).toBe(200);
    expect(failure.cause).toBeInstanceOf(SyntaxError);
  });

  it('keeps the timeout as the cause of an answer that did not come in time', async () => {
    server.next('hang');
    const { failure, tries } = await failureOf('timeout: 0.5\n');
    expect(failure).toBeInstanceOf(ActionServerUnavailableError);
    expect(failure.name).toBe('ActionServerUnavailableError');
    expect(failure.code).toBe('ACTION_SERVER_UNAVAILABLE');
    expect(failure.message).toBe(`the action server at ${server.url} did not answer within 0.5 s`);
    expect(failure.cause?.name).toBe('TimeoutError');
    expect(tries).toBe(1);
  });
});
