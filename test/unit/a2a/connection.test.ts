import type { Client } from '@a2a-js/sdk/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  A2AConnection,
  CARD_TTL_MS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  isTask,
} from '../../../src/a2a/connection.js';
import { A2ARequestError, A2AUnavailableError } from '../../../src/a2a/errors.js';
import { grpcTransportFactory } from '../../../src/a2a/grpc.js';
import type { A2ASubAgent } from '../../../src/assistant/index.js';
import type { A2AConfiguration } from '../../../src/assistant/schemas/subAgent.js';
import type { SecretStore } from '../../../src/runtime/index.js';

// Spied on to see whether a connection loads gRPC; it still builds the real factory.
vi.mock('../../../src/a2a/grpc.js', { spy: true });

afterEach(() => {
  vi.useRealTimers();
});

const CARD_URL = 'https://shop.example/cards/shop.json';
const KEY = 'shop-key-0123456789abcdef';

/** An A2A 0.3 card whose JSON-RPC endpoint is `https://shop.example/a2a`. */
const legacyCard = (name = 'shop') => ({
  protocolVersion: '0.3.0',
  name,
  description: 'Sells things.',
  url: 'https://shop.example/a2a',
  preferredTransport: 'JSONRPC',
  version: '1.0.0',
  capabilities: { streaming: false, pushNotifications: false },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [],
});

/** An A2A 1.0 card offering the given interfaces, in that order. */
const cardOffering = (...bindings: string[]) => ({
  name: 'shop',
  description: 'Sells things.',
  version: '1.0.0',
  supportedInterfaces: bindings.map((protocolBinding) => ({
    url: protocolBinding === 'GRPC' ? '127.0.0.1:50051' : 'https://shop.example/a2a',
    protocolBinding,
    protocolVersion: '1.0',
  })),
  capabilities: { streaming: false, pushNotifications: false },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [],
});

interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: Headers;
  readonly signal: AbortSignal;
  readonly body: { id?: number; method?: string; params?: Record<string, unknown> } | undefined;
}

type Answer = (seen: Seen) => Response | Promise<Response>;

/**
 * An agent in process: answers a GET with `card` and each POST with the next of `posts` (the last
 * one repeats); every request is recorded.
 */
function fakeAgent(options: { card?: Answer; posts?: Answer[] } = {}) {
  const seen: Seen[] = [];
  const posts = options.posts ?? [];
  const fetchImpl: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const text = await request.text();
    const entry: Seen = {
      method: request.method,
      url: request.url,
      headers: request.headers,
      signal: request.signal,
      body: text ? JSON.parse(text) : undefined,
    };
    seen.push(entry);
    if (request.method === 'GET')
      return (options.card ?? (() => Response.json(legacyCard())))(entry);
    const postsSoFar = seen.filter((s) => s.method === 'POST').length;
    const answer = posts[Math.min(postsSoFar, posts.length) - 1];
    if (!answer) throw new Error('no answer scripted');
    return answer(entry);
  };
  return {
    fetch: fetchImpl,
    seen,
    cardFetches: () => seen.filter((s) => s.method === 'GET').length,
    posts: () => seen.filter((s) => s.method === 'POST'),
  };
}

/** A JSON-RPC answer with `result`. */
const rpcResult =
  (result: unknown): Answer =>
  (seen) =>
    Response.json({ jsonrpc: '2.0', id: seen.body?.id, result });

const agentMessage = rpcResult({
  kind: 'message',
  messageId: 'answer-1',
  role: 'agent',
  parts: [{ kind: 'text', text: 'ok' }],
});

const taskIn = (state: string, said?: string) =>
  rpcResult({
    kind: 'task',
    id: 'task-1',
    contextId: 'ctx-1',
    status: {
      state,
      ...(said
        ? {
            message: {
              kind: 'message',
              messageId: 's-1',
              role: 'agent',
              parts: [{ kind: 'text', text: said }],
            },
          }
        : {}),
    },
    artifacts: [],
  });

function secrets(values: Record<string, string>): SecretStore {
  return {
    get: async (name) => {
      const value = values[name];
      if (value === undefined) throw new Error(`secret ${name} not found`);
      return value;
    },
  };
}

function subAgent(
  configuration: Partial<A2AConfiguration> = {},
  agentCard: A2ASubAgent['agentCard'] = { kind: 'url', url: CARD_URL },
): A2ASubAgent {
  return {
    name: 'shop',
    description: 'Sells things.',
    dir: 'sub_agents/shop',
    protocol: 'A2A',
    configuration: {
      agent_card: agentCard.kind === 'url' ? agentCard.url : 'card.json',
      max_polling_time: 60,
      polling_initial_delay: 0.5,
      task_timeout: 600,
      max_retries: 0,
      ...configuration,
    },
    agentCard,
  };
}

/**
 * A connection to `agent` with OAuth client credentials, whose token endpoint issues
 * `token-1`, `token-2`, … for an hour each.
 */
function oauthConnection(agent: ReturnType<typeof fakeAgent>, now?: () => number) {
  let issued = 0;
  return new A2AConnection({
    agent: subAgent({
      auth: {
        oauth: {
          client_id: 'switchboard',
          client_secret: { secret: 'CLIENT_SECRET' },
          token_url: 'https://auth.example/token',
        },
      },
    }),
    secrets: secrets({ CLIENT_SECRET: 'client-secret-0123456789' }),
    fetch: async (input, init) => {
      if (String(input) === 'https://auth.example/token') {
        issued += 1;
        return Response.json({ access_token: `token-${issued}`, expires_in: 3600 });
      }
      return agent.fetch(input, init);
    },
    ...(now ? { now } : {}),
  });
}

/**
 * An agent whose first card fetch hangs until `failFirst` fails it; later fetches (counted from
 * 2) get `later`'s answer.
 */
function firstCardHeld(later: (answer: number) => Response) {
  let failFirst: (error: Error) => void = () => {};
  let answers = 0;
  const agent = fakeAgent({
    card: () => {
      answers += 1;
      if (answers > 1) return later(answers);
      return new Promise<Response>((_resolve, reject) => {
        failFirst = reject;
      });
    },
  });
  return { agent, failFirst: (error: Error) => failFirst(error) };
}

const live = () => ({ signal: new AbortController().signal });

/** A clock the test moves by hand. */
function clock(start = 1_000_000) {
  let now = start;
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe('A2AConnection', () => {
  it('is named after its agent', () => {
    const connection = new A2AConnection({ agent: subAgent(), secrets: secrets({}) });

    expect(connection.name).toBe('shop');
  });

  it('fetches the card from the configured URL, and keeps it until its TTL is over', async () => {
    const time = clock();
    const agent = fakeAgent();
    const connection = new A2AConnection({
      agent: subAgent(),
      secrets: secrets({}),
      fetch: agent.fetch,
      now: time.now,
    });

    const card = await connection.card(live());
    expect(card.name).toBe('shop');
    expect(agent.seen.map((s) => `${s.method} ${s.url}`)).toEqual([`GET ${CARD_URL}`]);
    time.advance(5 * 60_000 - 1);
    await connection.card(live());
    expect(agent.cardFetches()).toBe(1);
    time.advance(1);
    await connection.card(live());
    expect(agent.cardFetches()).toBe(2);
  });

  it('keeps a card of the project for good, without fetching anything', async () => {
    const time = clock();
    const agent = fakeAgent();
    const connection = new A2AConnection({
      agent: subAgent({}, { kind: 'file', file: 'card.json', card: legacyCard('from-file') }),
      secrets: secrets({}),
      fetch: agent.fetch,
      now: time.now,
    });

    const first = await connection.client(live());
    time.advance(10 * CARD_TTL_MS);
    const again = await connection.client(live());

    expect(again).toBe(first);
    expect((await connection.card(live())).name).toBe('from-file');
    expect(agent.seen).toEqual([]);
  });

  it('fetches the card again after a failed fetch, and says how it failed', async () => {
    let cardAnswers = 0;
    const agent = fakeAgent({
      card: () => {
        cardAnswers += 1;
        return cardAnswers === 1
          ? new Response('gone', { status: 404 })
          : Response.json(legacyCard());
      },
    });
    const connection = new A2AConnection({
      agent: subAgent(),
      secrets: secrets({}),
      fetch: agent.fetch,
    });

    const failure = await connection.card(live()).catch((e: unknown) => e);
    const card = await connection.card(live());

    expect(failure).toBeInstanceOf(A2ARequestError);
    expect(String(failure)).toBe('A2ARequestError: A2A agent shop: the agent answered HTTP 404');
    expect(card.name).toBe('shop');
    expect(agent.cardFetches()).toBe(2);
  });

  it('keeps a newer card when an older fetch of it fails late', async () => {
    const time = clock();
    const held = firstCardHeld(() => Response.json(legacyCard()));
    const { agent } = held;
    const connection = new A2AConnection({
      agent: subAgent(),
      secrets: secrets({}),
      fetch: agent.fetch,
      now: time.now,
    });
    const old = connection.card(live()).catch((e: unknown) => e);
    await vi.waitFor(() => expect(agent.cardFetches()).toBe(1));
    time.advance(5 * 60_000);
    await connection.card(live());

    held.failFirst(new Error('the old request broke'));
    await old;
    await connection.card(live());

    expect(agent.cardFetches()).toBe(2);
  });

  it('fetches the card again when an older fetch fails late, after a newer one failed too', async () => {
    const time = clock();
    const held = firstCardHeld((answer) =>
      answer === 2 ? new Response('gone', { status: 404 }) : Response.json(legacyCard()),
    );
    const { agent } = held;
    const connection = new A2AConnection({
      agent: subAgent(),
      secrets: secrets({}),
      fetch: agent.fetch,
      now: time.now,
    });
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const old = connection.card(live()).catch((e: unknown) => e);
      await vi.waitFor(() => expect(agent.cardFetches()).toBe(1));
      time.advance(5 * 60_000);
      const newer = await connection.card(live()).catch((e: unknown) => e);

      held.failFirst(new Error('the old request broke'));
      await old;
      await new Promise((resolve) => setImmediate(resolve));
      const card = await connection.card(live());

      expect(newer).toBeInstanceOf(A2ARequestError);
      expect(card.name).toBe('shop');
      expect(agent.cardFetches()).toBe(3);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('stops waiting for the card when the job is aborted, with the job’s reason', async () => {
    const agent = fakeAgent({ card: () => new Promise<Response>(() => {}) });
    const connection = new A2AConnection({
      agent: subAgent(),
      secrets: secrets({}),
      fetch: agent.fetch,
    });
    const controller = new AbortController();
    const pending = connection.card({ signal: controller.signal });

    controller.abort(new Error('the job ended'));

    await expect(pending).rejects.toThrow('the job ended');
  });

  it('sends the agent’s credentials with the card request and with each message', async () => {
    const agent = fakeAgent({ posts: [agentMessage] });
    const connection = new A2AConnection({
      agent: subAgent({ auth: { api_key: { secret: 'SHOP_KEY' }, header_name: 'X-Api-Key' } }),
      secrets: secrets({ SHOP_KEY: KEY }),
      fetch: agent.fetch,
    });

    await connection.ensureHealthy(live());

    expect(agent.seen.map((s) => s.headers.get('x-api-key'))).toEqual([
      `Bearer ${KEY}`,
      `Bearer ${KEY}`,
    ]);
  });

  it('renews a refused OAuth token once and sends the request again with the new one', async () => {
    const agent = fakeAgent({
      posts: [() => new Response('expired', { status: 401 }), agentMessage],
    });
    const connection = oauthConnection(agent);

    await connection.ensureHealthy(live());

    expect(agent.posts().map((s) => s.headers.get('authorization'))).toEqual([
      'Bearer token-1',
      'Bearer token-2',
    ]);
  });

  it('asks for a new OAuth token once the token has expired by the connection’s clock', async () => {
    const time = clock();
    const agent = fakeAgent();
    const connection = oauthConnection(agent, time.now);

    await connection.card(live());
    time.advance(3600_000);
    await connection.card(live());

    expect(agent.seen.map((s) => s.headers.get('authorization'))).toEqual([
      'Bearer token-1',
      'Bearer token-2',
    ]);
  });

  it('does not send a request again when an API key is refused', async () => {
    const agent = fakeAgent({ posts: [() => new Response('no', { status: 401 }), agentMessage] });
    const connection = new A2AConnection({
      agent: subAgent({ auth: { api_key: { secret: 'SHOP_KEY' } } }),
      secrets: secrets({ SHOP_KEY: KEY }),
      fetch: agent.fetch,
    });

    const failure = await connection.ensureHealthy(live()).catch((e: unknown) => e);

    expect(String(failure)).toBe('A2ARequestError: A2A agent shop: the agent answered HTTP 401');
    expect(agent.posts()).toHaveLength(1);
  });

  it('retries a failed request as often as max_retries allows', async () => {
    vi.useFakeTimers();
    const agent = fakeAgent({
      posts: [
        () => new Response('busy', { status: 503 }),
        () => new Response('busy', { status: 503 }),
        agentMessage,
      ],
    });
    const connection = new A2AConnection({
      agent: subAgent({ max_retries: 2 }),
      secrets: secrets({}),
      fetch: agent.fetch,
    });

    const check = connection.ensureHealthy(live());
    await vi.advanceTimersByTimeAsync(1000);

    await expect(check).resolves.toBeUndefined();
    expect(agent.posts()).toHaveLength(3);
  });

  it('remembers how long the agent asked not to be called, longest wait first', async () => {
    const time = clock();
    const agent = fakeAgent({
      posts: [
        () => new Response('busy', { status: 503, headers: { 'retry-after': '30' } }),
        () => new Response('busy', { status: 503, headers: { 'retry-after': '5' } }),
      ],
    });
    const connection = new A2AConnection({
      agent: subAgent({ max_retries: 3 }),
      secrets: secrets({}),
      fetch: agent.fetch,
      now: time.now,
    });

    const first = await connection.ensureHealthy(live()).catch((e: unknown) => e);
    time.advance(10_000);
    const second = await connection.ensureHealthy(live()).catch((e: unknown) => e);
    const third = connection.failure(new TypeError('fetch failed'));
    time.advance(20_000);
    const after = connection.failure(new TypeError('fetch failed'));

    expect(first).toBeInstanceOf(A2AUnavailableError);
    expect(String(first)).toBe('A2AUnavailableError: A2A agent shop: the agent answered HTTP 503');
    expect(first).toMatchObject({ retryAfterMs: 30_000 });
    expect(second).toMatchObject({ retryAfterMs: 20_000 });
    expect(third).toMatchObject({ retryAfterMs: 20_000 });
    expect(after).toBeInstanceOf(A2AUnavailableError);
    expect(after.retryAfterMs).toBeUndefined();
  });

  it('removes the credentials it sent from the reason of a failure', async () => {
    const agent = fakeAgent({ posts: [agentMessage] });
    const connection = new A2AConnection({
      agent: subAgent({ auth: { api_key: { secret: 'SHOP_KEY' } } }),
      secrets: secrets({ SHOP_KEY: KEY }),
      fetch: agent.fetch,
    });
    await connection.ensureHealthy(live());

    const failure = connection.failure(new Error(`key ${KEY} is not valid`));

    expect(failure).toBeInstanceOf(A2ARequestError);
    expect(failure.message).toBe('A2A agent shop: key [redacted] is not valid');
  });
});

describe('A2AConnection.ensureHealthy', () => {
  it('sends a health check the agent must answer at once, and checks only once', async () => {
    const agent = fakeAgent({ posts: [agentMessage] });
    const connection = new A2AConnection({
      agent: subAgent(),
      secrets: secrets({}),
      fetch: agent.fetch,
    });

    await connection.ensureHealthy(live());
    await connection.ensureHealthy(live());

    expect(agent.posts()).toHaveLength(1);
    const [check] = agent.posts();
    expect(check?.url).toBe('https://shop.example/a2a');
    expect(check?.body?.method).toBe('message/send');
    expect(check?.body?.params).toMatchObject({
      configuration: { blocking: true, acceptedOutputModes: [] },
      message: {
        role: 'user',
        parts: [{ kind: 'text', text: 'health check' }],
        metadata: { health_check: true },
      },
    });
    const message = check?.body?.params?.message as { messageId: string };
    expect(message.messageId).toMatch(/^health-[0-9a-f-]{36}$/);
  });

  it('sends the health check of A2A 1.0 to no tenant, asking for the final answer', async () => {
    const agent = fakeAgent({
      posts: [
        rpcResult({ message: { messageId: 'a-1', role: 'ROLE_AGENT', parts: [{ text: 'ok' }] } }),
      ],
    });
    const connection = new A2AConnection({
      agent: subAgent({}, { kind: 'file', file: 'c.json', card: cardOffering('JSONRPC') }),
      secrets: secrets({}),
      fetch: agent.fetch,
    });

    await connection.ensureHealthy(live());

    const [check] = agent.posts();
    expect(check?.body?.method).toBe('SendMessage');
    expect(check?.body?.params?.tenant ?? '').toBe('');
    const configuration = check?.body?.params?.configuration as Record<string, unknown>;
    expect(configuration.returnImmediately ?? false).toBe(false);
  });

  it('passes an agent that answers with a completed or still working task', async () => {
    for (const state of ['completed', 'working']) {
      const agent = fakeAgent({ posts: [taskIn(state)] });
      const connection = new A2AConnection({
        agent: subAgent(),
        secrets: secrets({}),
        fetch: agent.fetch,
      });

      await expect(connection.ensureHealthy(live()), state).resolves.toBeUndefined();
    }
  });

  it('fails an agent whose task fails, with what the agent said, and checks again next time', async () => {
    const agent = fakeAgent({ posts: [taskIn('failed', 'the database is down'), agentMessage] });
    const connection = new A2AConnection({
      agent: subAgent(),
      secrets: secrets({}),
      fetch: agent.fetch,
    });

    const failure = await connection.ensureHealthy(live()).catch((e: unknown) => e);
    await connection.ensureHealthy(live());

    expect(failure).toBeInstanceOf(A2ARequestError);
    expect((failure as Error).message).toMatch(
      /^A2A agent shop: the agent's task ended failed: .*the database is down/,
    );
    expect(agent.posts()).toHaveLength(2);
  });

  it('stops waiting for the check, and ends its request, when the job is aborted', async () => {
    const agent = fakeAgent({ posts: [() => new Promise<Response>(() => {})] });
    const connection = new A2AConnection({
      agent: subAgent(),
      secrets: secrets({}),
      fetch: agent.fetch,
    });
    const controller = new AbortController();
    const pending = connection.ensureHealthy({ signal: controller.signal });
    await vi.waitFor(() => expect(agent.posts()).toHaveLength(1));

    controller.abort(new Error('the job ended'));

    await expect(pending).rejects.toThrow('the job ended');
    expect(agent.posts()[0]?.signal.aborted).toBe(true);
  });
});

describe('A2AConnection transports', () => {
  it('speaks JSON-RPC before HTTP+JSON, whatever order the card lists them in', async () => {
    const agent = fakeAgent({ card: () => Response.json(cardOffering('HTTP+JSON', 'JSONRPC')) });
    const connection = new A2AConnection({
      agent: subAgent(),
      secrets: secrets({}),
      fetch: agent.fetch,
    });

    const client = await connection.client(live());

    expect(client.transport.protocolName).toBe('JSONRPC');
  });

  it('speaks HTTP+JSON before gRPC, and gRPC where the card offers nothing else', async () => {
    const http = new A2AConnection({
      agent: subAgent(
        {},
        { kind: 'file', file: 'c.json', card: cardOffering('GRPC', 'HTTP+JSON') },
      ),
      secrets: secrets({}),
    });
    const grpc = new A2AConnection({
      agent: subAgent({}, { kind: 'file', file: 'c.json', card: cardOffering('GRPC') }),
      secrets: secrets({}),
    });

    expect((await http.client(live())).transport.protocolName).toBe('HTTP+JSON');
    expect((await grpc.client(live())).transport.protocolName).toBe('GRPC');
  });
  it('loads gRPC only for a card that offers nothing over HTTP', async () => {
    const cases: [bindings: string[], loads: boolean][] = [
      [['JSONRPC'], false],
      [['GRPC', 'HTTP+JSON'], false],
      [['GRPC', 'JSONRPC'], false],
      [['GRPC'], true],
    ];
    for (const [bindings, loads] of cases) {
      vi.mocked(grpcTransportFactory).mockClear();
      const connection = new A2AConnection({
        agent: subAgent({}, { kind: 'file', file: 'c.json', card: cardOffering(...bindings) }),
        secrets: secrets({}),
      });

      await connection.client(live());

      expect(vi.mocked(grpcTransportFactory).mock.calls.length > 0, bindings.join()).toBe(loads);
    }
  });

  it('speaks HTTP+JSON of A2A 0.3 to an agent whose 0.3 card prefers it', async () => {
    const agent = fakeAgent({
      card: () => Response.json({ ...legacyCard(), preferredTransport: 'HTTP+JSON' }),
      posts: [
        () =>
          Response.json({
            message: { messageId: 'answer-1', role: 'ROLE_AGENT', content: [{ text: 'ok' }] },
          }),
      ],
    });
    const connection = new A2AConnection({
      agent: subAgent(),
      secrets: secrets({}),
      fetch: agent.fetch,
    });

    await connection.ensureHealthy(live());

    expect(agent.posts().map((s) => s.url)).toEqual(['https://shop.example/a2a/v1/message:send']);
  });

  it('uses the extended card of an agent that offers one', async () => {
    const agent = fakeAgent({
      card: () => Response.json({ ...legacyCard(), supportsAuthenticatedExtendedCard: true }),
      posts: [rpcResult(legacyCard('shop for members'))],
    });
    const connection = new A2AConnection({
      agent: subAgent({ auth: { api_key: { secret: 'SHOP_KEY' } } }),
      secrets: secrets({ SHOP_KEY: KEY }),
      fetch: agent.fetch,
    });

    const card = await connection.card(live());

    expect(card.name).toBe('shop for members');
    expect(agent.posts().map((s) => s.body?.method)).toEqual([
      'agent/getAuthenticatedExtendedCard',
    ]);
  });
});

describe('A2AConnection.requestOptions', () => {
  const over = (protocolName: string) => ({ transport: { protocolName } }) as unknown as Client;

  it('sends the credentials as lower-case call metadata over gRPC only', async () => {
    const connection = new A2AConnection({
      agent: subAgent({ auth: { api_key: { secret: 'SHOP_KEY' }, header_name: 'X-Api-Key' } }),
      secrets: secrets({ SHOP_KEY: KEY }),
    });

    const grpc = await connection.requestOptions(live(), over('GRPC'));
    const http = await connection.requestOptions(live(), over('JSONRPC'));
    const extra = { serviceParameters: { 'a2a-extensions': 'https://ext.example/v1' } };
    const withExtra = await connection.requestOptions(live(), over('JSONRPC'), extra);

    expect(grpc.serviceParameters).toEqual({ 'x-api-key': `Bearer ${KEY}` });
    expect(http.serviceParameters).toBeUndefined();
    expect(withExtra.serviceParameters).toEqual(extra.serviceParameters);
    expect(withExtra.signal).toBeInstanceOf(AbortSignal);
  });

  it('gives a signal that aborts with the job’s', async () => {
    const connection = new A2AConnection({ agent: subAgent(), secrets: secrets({}) });
    const controller = new AbortController();

    const options = await connection.requestOptions({ signal: controller.signal }, over('JSONRPC'));
    controller.abort(new Error('the job ended'));

    expect(options.signal?.aborted).toBe(true);
    expect(options.signal?.reason).toEqual(new Error('the job ended'));
  });
});

describe('A2AConnection.timeoutMs', () => {
  it('allows 30 s by default, or the configured timeout in seconds', () => {
    const byDefault = new A2AConnection({ agent: subAgent(), secrets: secrets({}) });
    const configured = new A2AConnection({
      agent: subAgent({ timeout: 4.5 }),
      secrets: secrets({}),
    });

    expect(DEFAULT_REQUEST_TIMEOUT_MS).toBe(30_000);
    expect(byDefault.timeoutMs(live())).toBe(30_000);
    expect(configured.timeoutMs(live())).toBe(4500);
  });

  it('ends a request by the job’s deadline, and at once when the deadline has passed', () => {
    const time = clock();
    const connection = new A2AConnection({
      agent: subAgent({ timeout: 10 }),
      secrets: secrets({}),
      now: time.now,
    });
    const signal = new AbortController().signal;

    expect(connection.timeoutMs({ signal, deadline: time.now() + 3000 })).toBe(3000);
    expect(connection.timeoutMs({ signal, deadline: time.now() + 60_000 })).toBe(10_000);
    expect(connection.timeoutMs({ signal, deadline: time.now() - 5000 })).toBe(0);
  });
});

describe('isTask', () => {
  it('tells a task from a message', async () => {
    const agent = fakeAgent({ posts: [taskIn('completed'), agentMessage] });
    const connection = new A2AConnection({
      agent: subAgent(),
      secrets: secrets({}),
      fetch: agent.fetch,
    });
    const client = await connection.client(live());
    const send = () =>
      client.sendMessage({
        tenant: '',
        message: {
          messageId: 'm-1',
          contextId: '',
          taskId: '',
          role: 1,
          parts: [],
          metadata: undefined,
          extensions: [],
          referenceTaskIds: [],
        },
        configuration: undefined,
        metadata: undefined,
      });

    expect(isTask(await send())).toBe(true);
    expect(isTask(await send())).toBe(false);
  });
});
