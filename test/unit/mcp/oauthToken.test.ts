import { describe, expect, it } from 'vitest';
import type { OAuthConfig } from '../../../src/assistant/index.js';
import { OAuthTokenError } from '../../../src/mcp/index.js';
import { ClientCredentialsToken } from '../../../src/mcp/oauthToken.js';
import { secretsOf } from '../../integration/mcp/fixtures.js';

const TOKEN_URL = 'https://auth.example/oauth/token';

/** What the token endpoint does with one request: answer, or fail as `fetch` fails. */
type Reply = Response | Promise<Response> | { readonly throws: unknown };

interface TokenRequest {
  readonly url: string;
  readonly method: string | undefined;
  readonly headers: Headers;
  readonly form: Record<string, string>;
}

/**
 * A `fetch` that stands in for the token endpoint without any I/O: each request takes the next
 * scripted reply, then a fresh token.
 */
function tokenEndpoint(replies: Reply[]) {
  const requests: TokenRequest[] = [];
  const fetchFn: typeof fetch = async (input, init) => {
    requests.push({
      url: String(input),
      method: init?.method,
      headers: new Headers(init?.headers),
      form: Object.fromEntries(new URLSearchParams(String(init?.body))),
    });
    const reply = replies.shift() ?? granted(`token-${requests.length}`);
    if ('throws' in reply) throw reply.throws;
    return reply;
  };
  return { fetchFn, requests };
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

const granted = (token: string, expiresIn?: number) =>
  json(200, { access_token: token, token_type: 'Bearer', expires_in: expiresIn });

function deferred() {
  let resolve: (response: Response) => void = () => {};
  const promise = new Promise<Response>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

function clock(start = 1_000_000) {
  let now = start;
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

function tokenOf(
  replies: Reply[],
  oauth: Partial<OAuthConfig> = {},
  now: () => number = () => 1_000_000,
) {
  const endpoint = tokenEndpoint(replies);
  const token = new ClientCredentialsToken(
    {
      client_id: 'app',
      client_secret: { secret: 'CLIENT_SECRET' },
      token_url: TOKEN_URL,
      ...oauth,
    },
    secretsOf({ CLIENT_SECRET: 'client-secret-1' }),
    now,
    endpoint.fetchFn,
  );
  return { token, requests: endpoint.requests };
}

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (e: unknown) => e,
  );

describe('ClientCredentialsToken', () => {
  it('posts the client credentials as a form asking for JSON, without scope or audience unset', async () => {
    const { token, requests } = tokenOf([granted('token-1', 3600)]);

    await expect(token.get()).resolves.toBe('token-1');

    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request?.url).toBe(TOKEN_URL);
    expect(request?.method).toBe('POST');
    expect(request?.headers.get('content-type')).toBe('application/x-www-form-urlencoded');
    expect(request?.headers.get('accept')).toBe('application/json');
    expect(request?.form).toEqual({
      grant_type: 'client_credentials',
      client_id: 'app',
      client_secret: 'client-secret-1',
    });
  });

  it('shares one request among callers that ask before the token arrives', async () => {
    const { token, requests } = tokenOf([granted('token-1', 3600)]);

    const tokens = await Promise.all([token.get(), token.get()]);

    expect(tokens).toEqual(['token-1', 'token-1']);
    expect(requests).toHaveLength(1);
  });

  it.each([
    ['a tenth of its life before it expires, when that is under a minute', 100, 90_000],
    ['a minute before it expires, when that is under a tenth of its life', 3600, 3_540_000],
    ['after four and a half minutes when the endpoint names no lifetime', undefined, 270_000],
  ])('renews a token %s', async (_, expiresIn, renewedAfterMs) => {
    const time = clock();
    const { token, requests } = tokenOf(
      [granted('token-1', expiresIn), granted('token-2', expiresIn)],
      {},
      time.now,
    );
    await token.get();

    time.advance(renewedAfterMs - 1);
    const before = await token.get();
    time.advance(1);
    const after = await token.get();

    expect([before, after]).toEqual(['token-1', 'token-2']);
    expect(requests).toHaveLength(2);
  });

  it('asks again after a failed request instead of keeping the failure', async () => {
    const { token, requests } = tokenOf([json(503, {}), granted('token-2', 3600)]);

    await expect(token.get()).rejects.toBeInstanceOf(OAuthTokenError);
    await expect(token.get()).resolves.toBe('token-2');

    expect(requests).toHaveLength(2);
  });

  it('keeps the token asked for after invalidate when the forgotten request fails late', async () => {
    const first = deferred();
    const { token, requests } = tokenOf([first.promise, granted('token-2', 3600)]);
    const forgotten = token.get();
    token.invalidate();
    await expect(token.get()).resolves.toBe('token-2');

    first.resolve(json(503, {}));
    await expect(forgotten).rejects.toBeInstanceOf(OAuthTokenError);

    await expect(token.get()).resolves.toBe('token-2');
    expect(requests).toHaveLength(2);
  });

  it.each([
    ['the deadline when it comes before the timeout', {}, 1_000_250, 250],
    ['once the deadline has passed', {}, 999_000, 0],
    ['the configured timeout when the deadline is later', { timeout: 5 }, 1_060_000, 5000],
    ['ten seconds without a timeout or a deadline', {}, undefined, 10_000],
  ])('gives up waiting at %s, as a transient failure', async (_, oauth, deadline, waitedMs) => {
    const timedOut = new DOMException('The operation was aborted due to timeout', 'TimeoutError');
    const { token } = tokenOf([{ throws: timedOut }], oauth);

    const failure = await failureOf(token.get({ deadline }));

    expect(failure).toBeInstanceOf(OAuthTokenError);
    expect(failure).toMatchObject({
      message: `token endpoint ${TOKEN_URL} did not answer within ${waitedMs} ms`,
      transient: true,
      cause: timedOut,
    });
  });

  it.each([
    [
      'the code of a refused connection',
      new TypeError('fetch failed', {
        cause: Object.assign(new Error('connect ECONNREFUSED 10.0.0.9:443'), {
          code: 'ECONNREFUSED',
        }),
      }),
      'ECONNREFUSED',
    ],
    ['the message of a failure without a code', new TypeError('fetch failed'), 'fetch failed'],
    [
      'the message when the cause has no code',
      new TypeError('fetch failed', { cause: new Error('other side closed') }),
      'fetch failed',
    ],
    ['a failure that is not an Error', 'socket hang up', 'socket hang up'],
  ])('reports an unreachable endpoint as transient, naming %s', async (_, thrown, named) => {
    const { token } = tokenOf([{ throws: thrown }]);

    const failure = await failureOf(token.get());

    expect(failure).toBeInstanceOf(OAuthTokenError);
    expect(failure).toMatchObject({
      message: `token endpoint ${TOKEN_URL} could not be reached (${named})`,
      transient: true,
      cause: thrown,
    });
  });

  it('passes on the failure of a request its caller aborted', async () => {
    const controller = new AbortController();
    const stopped = new Error('the conversation ended');
    controller.abort(stopped);
    const { token } = tokenOf([{ throws: stopped }]);

    await expect(token.get({ signal: controller.signal })).rejects.toBe(stopped);
  });

  it.each([
    [400, json(400, { error: 'invalid_scope', error_description: 'no' }), ': invalid_scope', false],
    [401, json(401, { error: 'invalid_client' }), ': invalid_client', false],
    [403, json(403, { error: { code: 7 } }), '', false],
    [429, json(429, {}), '', true],
    [500, new Response('Internal Server Error', { status: 500 }), '', true],
    [503, json(503, { error: 'temporarily_unavailable' }), ': temporarily_unavailable', true],
  ])(
    'reports an answer %i with its OAuth error, transient after 429 and 5xx',
    async (status, reply, detail, transient) => {
      const { token } = tokenOf([reply]);

      const failure = await failureOf(token.get());

      expect(failure).toBeInstanceOf(OAuthTokenError);
      expect(failure).toMatchObject({
        message: `token endpoint ${TOKEN_URL} answered ${status}${detail}`,
        transient,
      });
    },
  );

  it.each([
    ['no access_token', { token_type: 'Bearer', expires_in: 60 }],
    ['an empty access_token', { access_token: '', expires_in: 60 }],
  ])('refuses an answer with %s, for good', async (_, body) => {
    const { token } = tokenOf([json(200, body)]);

    const failure = await failureOf(token.get());

    expect(failure).toBeInstanceOf(OAuthTokenError);
    expect(failure).toMatchObject({
      message: `token endpoint ${TOKEN_URL} answered without an access_token`,
      transient: false,
    });
  });
});
