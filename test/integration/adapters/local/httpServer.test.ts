import { Agent } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Emulators, startEmulators } from '../../../helpers/emulators.js';
import { type LocalHttp, sendRaw, serveLocalHttp } from '../../../helpers/localHttp.js';
import { waitFor } from '../../../helpers/waitFor.js';

const TOKEN = 'local-http-token';
const auth = { authorization: `Bearer ${TOKEN}` };
const json = { 'content-type': 'application/json' };
const WEBHOOK = '/webhooks/rest/webhook';

describe('the local HTTP server', () => {
  let emulators: Emulators;
  let http: LocalHttp;
  let url: string;

  beforeAll(async () => {
    emulators = await startEmulators();
    http = await serveLocalHttp(emulators, TOKEN);
    url = http.server.url;
  }, 30_000);

  afterAll(async () => {
    await http?.server.close();
    await emulators?.close();
  });

  it('serves the next request on a keep-alive connection after refusing a 2 MiB body', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const refused = await sendRaw(url, {
        method: 'POST',
        path: WEBHOOK,
        headers: { ...auth, ...json },
        body: Buffer.alloc(2 * 1024 * 1024, 'x'),
        agent,
      });
      const next = await sendRaw(url, { method: 'GET', path: '/health', agent });
      expect([refused.status, next.status]).toEqual([413, 200]);
      expect(JSON.parse(refused.text)).toEqual({ error: 'the body is larger than 65536 bytes' });
      expect(refused.headers.connection).toBe('close');
    } finally {
      agent.destroy();
    }
  });

  it('checks the token before the body: a wrong token with a 2 MiB body gets 401', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const refused = await sendRaw(url, {
        method: 'POST',
        path: WEBHOOK,
        headers: { authorization: 'Bearer wrong', ...json },
        body: Buffer.alloc(2 * 1024 * 1024, 'x'),
        agent,
      });
      expect(refused.status).toBe(401);
      expect(JSON.parse(refused.text)).toEqual({ error: 'missing or wrong bearer token' });
      expect((await sendRaw(url, { method: 'GET', path: '/health', agent })).status).toBe(200);
    } finally {
      agent.destroy();
    }
  });

  it('refuses every body over the one documented limit of 64 KiB with the same reason', async () => {
    for (const size of [70_000, 300 * 1024]) {
      const refused = await sendRaw(url, {
        method: 'POST',
        path: WEBHOOK,
        headers: { ...auth, ...json },
        body: JSON.stringify({ sender: 'big', message: 'x'.repeat(size) }),
      });
      expect({ status: refused.status, body: JSON.parse(refused.text) }).toEqual({
        status: 413,
        body: { error: 'the body is larger than 65536 bytes' },
      });
    }
  });

  it('refuses a tracker sender id of 3,000 characters with 400 and a reason', async () => {
    const answer = await sendRaw(url, {
      method: 'GET',
      path: `/conversations/${'s'.repeat(3000)}/tracker`,
      headers: auth,
    });
    expect({ status: answer.status, body: JSON.parse(answer.text) }).toEqual({
      status: 400,
      body: { error: 'the sender id in the path must be at most 128 characters' },
    });
    const spaced = await sendRaw(url, {
      method: 'GET',
      path: '/conversations/a%20b/tracker',
      headers: auth,
    });
    expect({ status: spaced.status, body: JSON.parse(spaced.text) }).toEqual({
      status: 400,
      body: { error: 'the sender id in the path may contain letters, digits and . _ : @ + - only' },
    });
  });

  it('refuses metadata nested 4,200 deep with 400 instead of failing', async () => {
    const depth = 4200;
    const metadata = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    const answer = await sendRaw(url, {
      method: 'POST',
      path: WEBHOOK,
      headers: { ...auth, ...json },
      body: `{"sender": "deep", "message": "hi", "metadata": ${metadata}}`,
    });
    expect({ status: answer.status, body: JSON.parse(answer.text) }).toEqual({
      status: 400,
      body: { error: 'the body is nested deeper than 32 levels' },
    });
  });

  it('accepts metadata nested within the limit', async () => {
    const depth = 30;
    const metadata = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    const answer = await sendRaw(url, {
      method: 'POST',
      path: WEBHOOK,
      headers: { ...auth, ...json },
      body: `{"sender": "nested", "message": "hi", "metadata": ${metadata}}`,
    });
    expect(answer.status).toBe(200);
  });

  it('answers HEAD on every GET route with the GET status and no body', async () => {
    const health = await sendRaw(url, { method: 'HEAD', path: '/health' });
    expect([health.status, health.text, health.headers['content-type']]).toEqual([
      200,
      '',
      'application/json',
    ]);
    expect((await sendRaw(url, { method: 'HEAD', path: '/' })).status).toBe(200);
    const tracker = await sendRaw(url, {
      method: 'HEAD',
      path: '/conversations/nobody/tracker',
      headers: auth,
    });
    expect([tracker.status, tracker.text]).toEqual([200, '']);
    const unauthorized = await sendRaw(url, {
      method: 'HEAD',
      path: '/conversations/nobody/tracker',
    });
    expect([unauthorized.status, unauthorized.text]).toEqual([401, '']);
    const webhook = await sendRaw(url, { method: 'HEAD', path: WEBHOOK });
    expect([webhook.status, webhook.headers.allow]).toEqual([405, 'POST']);
  });

  it('logs a client that leaves in the middle of its body at DEBUG, not ERROR', async () => {
    const { port } = new URL(url);
    const before = http.logs.length;
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    // Node answers `100 Continue` once it handed the request to the server: then the body starts.
    const continued = new Promise((resolve) => socket.once('data', resolve));
    // The token comes in the query, as Rasa's clients may send it: the log line must not show it.
    socket.write(
      `POST ${WEBHOOK}?token=${TOKEN} HTTP/1.1\r\nhost: 127.0.0.1\r\n` +
        'content-type: application/json\r\ncontent-length: 1000\r\nexpect: 100-continue\r\n\r\n',
    );
    expect(String(await continued)).toMatch(/^HTTP\/1\.1 100 Continue/);
    socket.end('{"sender": ');
    socket.destroy();
    await waitFor(() => http.logs.length > before, { description: 'a log line' });
    expect(http.logs.slice(before)).toEqual(['debug client disconnected']);
    expect(http.logFields.slice(before)).toEqual([
      JSON.stringify({ method: 'POST', path: WEBHOOK }),
    ]);
  });
});
