import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { retryingFetch } from '../../../src/a2a/retryingFetch.js';

/** A loopback server answering each request with the next of `answers` (the last one repeats). */
async function serve(
  answers: { status: number; headers?: Record<string, string> }[],
): Promise<{ url: string; bodies: string[]; server: Server }> {
  const bodies: string[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += String(chunk);
    });
    request.on('end', () => {
      bodies.push(body);
      const answer = answers[Math.min(bodies.length, answers.length) - 1] ?? { status: 200 };
      response.writeHead(answer.status, answer.headers ?? {}).end(`answer ${bodies.length}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, bodies, server };
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

const noJitter = () => 0;

describe('retryingFetch', () => {
  it('tries a request again after 503 and 429, sending the same body, until it succeeds', async () => {
    const peer = await serve([{ status: 503 }, { status: 429 }, { status: 200 }]);
    servers.push(peer.server);
    const response = await retryingFetch(
      fetch,
      3,
      noJitter,
    )(peer.url, {
      method: 'POST',
      body: '{"id":"m-1"}',
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('answer 3');
    expect(peer.bodies).toEqual(['{"id":"m-1"}', '{"id":"m-1"}', '{"id":"m-1"}']);
  });

  it('gives the last answer once max_retries are used up, and never retries a 4xx', async () => {
    const failing = await serve([{ status: 502 }]);
    const refusing = await serve([{ status: 400 }]);
    servers.push(failing.server, refusing.server);
    expect((await retryingFetch(fetch, 2, noJitter)(failing.url)).status).toBe(502);
    expect(failing.bodies).toHaveLength(3);
    expect((await retryingFetch(fetch, 0, noJitter)(failing.url)).status).toBe(502);
    expect(failing.bodies).toHaveLength(4);
    expect((await retryingFetch(fetch, 3, noJitter)(refusing.url)).status).toBe(400);
    expect(refusing.bodies).toHaveLength(1);
  });

  it('returns an answer that asks for a long wait at once, for the delayed retry to honour', async () => {
    const peer = await serve([{ status: 503, headers: { 'retry-after': '30' } }]);
    servers.push(peer.server);
    const waits: number[] = [];
    const response = await retryingFetch(fetch, 3, noJitter, (ms) => waits.push(ms))(peer.url);
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('30');
    expect(peer.bodies).toHaveLength(1);
    expect(waits).toEqual([30_000]);
  });

  it('retries a refused connection, then throws what fetch threw', async () => {
    const peer = await serve([{ status: 200 }]);
    const url = peer.url;
    await new Promise((r) => peer.server.close(r));
    let attempts = 0;
    const counting: typeof fetch = (input, init) => {
      attempts++;
      return fetch(input, init);
    };
    await expect(retryingFetch(counting, 2, noJitter)(url)).rejects.toThrow(/fetch failed/);
    expect(attempts).toBe(3);
  });

  it('stops waiting between tries when the request is aborted', async () => {
    const peer = await serve([{ status: 503 }]);
    servers.push(peer.server);
    const controller = new AbortController();
    const request = retryingFetch(fetch, 10, noJitter)(peer.url, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('the job ended')), 100);
    await expect(request).rejects.toThrow('the job ended');
    expect(peer.bodies.length).toBeLessThan(4);
  });
});
