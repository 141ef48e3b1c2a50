import { Agent } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpApi } from '../../../../src/runtime/index.js';
import { type Emulators, startEmulators } from '../../../helpers/emulators.js';
import { type LocalHttp, sendRaw, serveLocalHttp } from '../../../helpers/localHttp.js';

const TOKEN = 'fuzz-token';
const SEED = 0x5eed_2024;
const REQUESTS = 100;

/** A small seeded generator (mulberry32): the same seed gives the same requests. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface FuzzRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: Buffer;
}

function generator(seed: number) {
  const random = mulberry32(seed);
  const int = (max: number) => Math.floor(random() * max);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)] as T;
  const text = (length: number, alphabet: string) =>
    Array.from({ length }, () => alphabet[int(alphabet.length)]).join('');
  const PRINTABLE = 'abcXYZ019 .:@+-_/\\"\'{}[]<>%?#&=,;!~*()$^|`';
  const senderId = () =>
    pick([
      () => text(1 + int(20), 'abcdefXYZ0129._:@+-'),
      () => 's'.repeat(129 + int(3000)),
      () => 's'.repeat(128),
      () => pick(['%E0%A4%A', '%', '%00', '%2F', '%20', 'a%2Fb', '%F0%9F%98%80', '..', '.']),
      () => encodeURIComponent(text(1 + int(30), PRINTABLE)),
    ])();
  const oddPath = () =>
    pick([
      () => '/health/',
      () => `/health?${text(int(20), 'ab=&%')}`,
      () => '/webhooks/rest/webhook/',
      () => '/conversations//tracker',
      () => `/conversations/${senderId()}/${senderId()}/tracker`,
      () => `/${encodeURIComponent(text(int(40), PRINTABLE))}`,
      () => '/webhooks/rest',
    ])();
  /** A route of the API with its method, mostly; sometimes another method or path. */
  const target = (): { method: string; path: string } => {
    const route = pick([
      { method: 'GET', path: () => '/' },
      { method: 'GET', path: () => '/health' },
      { method: 'POST', path: () => '/webhooks/rest/webhook' },
      { method: 'POST', path: () => '/webhooks/rest/webhook' },
      { method: 'GET', path: () => `/conversations/${senderId()}/tracker` },
      { method: 'GET', path: () => `/conversations/${senderId()}/tracker?limit=${int(100)}` },
    ]);
    const method =
      random() < 0.7
        ? route.method
        : pick(['GET', 'POST', 'HEAD', 'HEAD', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']);
    return { method, path: random() < 0.85 ? route.path() : oddPath() };
  };
  const json = (depth: number): unknown => {
    if (depth <= 0) return pick([null, true, 0, -1.5e300, 'x', '\\"[{', '\u2028\u{1F600}']);
    return pick([
      () => Array.from({ length: int(3) }, () => json(depth - 1)),
      () =>
        Object.fromEntries(Array.from({ length: int(3) }, (_, i) => [`k${i}`, json(depth - 1)])),
      () => json(0),
    ])();
  };
  const deep = (depth: number): unknown => {
    let value: unknown = 1;
    for (let i = 0; i < depth; i++) value = random() < 0.5 ? [value] : { a: value };
    return value;
  };
  const webhook = () => ({
    sender: pick([senderId(), '', '  ', 5, null, 'ok-sender']),
    message: pick(['hi', '', 'x'.repeat(4001), 7, text(int(50), PRINTABLE)]),
    ...pick([
      {},
      { metadata: json(1 + int(6)) },
      { metadata: { nested: deep(int(40)) } },
      { metadata: { message_id: pick(['m1', 5, '', null]) } },
      { metadata: { blob: 'z'.repeat(9000) } },
      { extra: 1 },
    ]),
  });
  const body = (): Buffer | undefined =>
    pick([
      () => undefined,
      () => Buffer.from(''),
      () => Buffer.from(JSON.stringify(webhook())),
      () => Buffer.from(JSON.stringify(webhook())),
      () => Buffer.from(JSON.stringify(webhook())),
      () => Buffer.from(JSON.stringify({ sender: 'ok-sender', message: 'hello' })),
      () => Buffer.from(JSON.stringify(json(1 + int(8)))),
      () => Buffer.from(`${'['.repeat(33 + int(5000))}`),
      () => {
        const depth = pick([20 + int(20), 1000 + int(5000)]);
        const open = Array.from({ length: depth }, () => pick(['[', '{"a":'])).join('');
        const close = [...open.matchAll(/\[|\{/g)].map((m) => (m[0] === '[' ? ']' : '}'));
        return Buffer.from(
          `{"sender":"deep","message":"m","metadata":{"n":${open}1${close.reverse().join('')}}}`,
        );
      },
      () => {
        const depth = 1000 + int(5000);
        return Buffer.from(
          `{"sender":"deep","message":"m","metadata":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`,
        );
      },
      () => Buffer.from(`{"sender":"q","message":"${'[{\\"'.repeat(40)}"}`),
      () =>
        Buffer.from(JSON.stringify({ sender: 'big', message: 'x'.repeat(60_000 + int(250_000)) })),
      () => Buffer.alloc(64 * 1024 + int(3), 'x'),
      () => Buffer.from(Array.from({ length: int(300) }, () => int(256))),
      () => Buffer.from(JSON.stringify(webhook()).slice(0, int(30))),
      () => Buffer.from('{"__proto__": {"polluted": 1}, "sender": "a", "message": "b"}'),
    ])();
  return (): FuzzRequest => {
    const { method, path } = target();
    const headers: Record<string, string> = {};
    const authorization =
      random() < 0.6
        ? `Bearer ${TOKEN}`
        : pick([
            undefined,
            `bearer ${TOKEN}`,
            'Bearer wrong',
            'Bearer ',
            `Basic ${TOKEN}`,
            `Bearer ${TOKEN.slice(0, -1)}`,
            `Bearer ${'t'.repeat(5000)}`,
          ]);
    if (authorization !== undefined) headers.authorization = authorization;
    const contentType = pick([
      undefined,
      'application/json',
      'application/json',
      'application/json',
      'application/json; charset=utf-8',
      'APPLICATION/JSON',
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/jsonp',
    ]);
    if (contentType !== undefined) headers['content-type'] = contentType;
    if (random() < 0.2) headers['x-fuzz'] = text(int(200), 'abc ;=,"');
    const payload = method === 'HEAD' ? undefined : body();
    return { method, path, headers, ...(payload === undefined ? {} : { body: payload }) };
  };
}

function requests(seed: number, count: number): FuzzRequest[] {
  const next = generator(seed);
  return Array.from({ length: count }, next);
}

async function statusesOverHttp(url: string, batch: readonly FuzzRequest[]): Promise<number[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const statuses: number[] = [];
    for (const request of batch) {
      statuses.push((await sendRaw(url, { ...request, agent })).status);
    }
    return statuses;
  } finally {
    agent.destroy();
  }
}

async function statusesOfRouteTable(api: HttpApi, batch: readonly FuzzRequest[]) {
  const statuses: number[] = [];
  for (const request of batch) {
    const { body, ...head } = request;
    const answer = await api.handle({
      ...head,
      ...(body === undefined ? {} : { body: body.toString('utf8') }),
    });
    statuses.push(answer.status);
  }
  return statuses;
}

describe('the HTTP API under random and hostile requests', () => {
  let emulators: Emulators;
  let http: LocalHttp;

  beforeAll(async () => {
    emulators = await startEmulators();
    http = await serveLocalHttp(emulators, TOKEN);
  }, 30_000);

  afterAll(async () => {
    await http?.server.close();
    await emulators?.close();
  });

  it('never answers 5xx over HTTP, and the same seed gives the same statuses', async () => {
    const batch = requests(SEED, REQUESTS);
    const first = await statusesOverHttp(http.server.url, batch);
    const second = await statusesOverHttp(http.server.url, requests(SEED, REQUESTS));
    expect(first.filter((status) => status >= 500)).toEqual([]);
    expect(second).toEqual(first);
    expect(new Set(first)).toEqual(new Set([200, 400, 401, 404, 405, 413, 415]));
    expect(http.logs.filter((line) => line.startsWith('error'))).toEqual([]);
  }, 30_000);

  it('answers the route table directly as over HTTP, never with 5xx', async () => {
    const batch = requests(SEED, REQUESTS);
    const direct = await statusesOfRouteTable(http.api, batch);
    expect(direct.filter((status) => status >= 500)).toEqual([]);
    expect(direct).toEqual(await statusesOverHttp(http.server.url, batch));
    for (const seed of [1, 2, 3]) {
      const statuses = await statusesOfRouteTable(http.api, requests(seed, REQUESTS));
      expect(statuses.filter((status) => status >= 500)).toEqual([]);
    }
  }, 30_000);
});
