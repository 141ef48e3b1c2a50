import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  MAX_INLINE_WAIT_MS,
  RETRY_BACKOFF,
  retryingFetch,
} from '../../../src/a2a/retryingFetch.js';

afterEach(() => {
  vi.useRealTimers();
});

const noJitter = () => 0;

/** A fetch answering each call with the next of `answers` (the last one repeats), recording calls. */
function scripted(answers: (() => Response | Promise<Response>)[]) {
  const calls: { input: unknown; init: RequestInit | undefined }[] = [];
  const base: typeof fetch = async (input, init) => {
    calls.push({ input, init });
    const answer = answers[Math.min(calls.length, answers.length) - 1];
    if (!answer) throw new Error('no answer scripted');
    return answer();
  };
  return { base, calls };
}

const status =
  (code: number, headers: Record<string, string> = {}) =>
  () =>
    new Response(`answer ${code}`, { status: code, headers });

/** A failed connection as fetch reports it. */
const connectionRefused = () => {
  throw new TypeError('fetch failed', {
    cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
  });
};

describe('retryingFetch', () => {
  it('retries each of 408, 429, 500, 502, 503 and 504, and no other status', async () => {
    vi.useFakeTimers();
    for (const code of [408, 429, 500, 502, 503, 504]) {
      const peer = scripted([status(code), status(200)]);
      const pending = retryingFetch(peer.base, 1, noJitter)('https://agent.example/a2a');
      await vi.advanceTimersByTimeAsync(RETRY_BACKOFF.baseMs);
      expect((await pending).status, `after ${code}`).toBe(200);
      expect(peer.calls, `after ${code}`).toHaveLength(2);
    }
    for (const code of [200, 400, 401, 404, 501, 505]) {
      const peer = scripted([status(code), status(200)]);
      const response = await retryingFetch(peer.base, 3, noJitter)('https://agent.example/a2a');
      expect(response.status).toBe(code);
      expect(peer.calls).toHaveLength(1);
    }
  });

  it('waits 0.25 s before the first retry, then twice as long before each next one', async () => {
    vi.useFakeTimers();
    const peer = scripted([status(503), status(503), status(503), status(200)]);
    const pending = retryingFetch(peer.base, 3, noJitter)('https://agent.example/a2a');

    await vi.advanceTimersByTimeAsync(249);
    expect(peer.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(peer.calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(499);
    expect(peer.calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(peer.calls).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(999);
    expect(peer.calls).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(1);
    expect((await pending).status).toBe(200);
    expect(peer.calls).toHaveLength(4);
  });

  it('stretches a wait by up to a fifth at random', async () => {
    vi.useFakeTimers();
    const peer = scripted([status(503), status(200)]);
    const pending = retryingFetch(peer.base, 1, () => 0.5)('https://agent.example/a2a');

    await vi.advanceTimersByTimeAsync(274);
    expect(peer.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect((await pending).status).toBe(200);
  });

  it('sends the same request each time', async () => {
    vi.useFakeTimers();
    const peer = scripted([status(503), status(200)]);
    const init = { method: 'POST', body: '{"id":"m-1"}' };
    const pending = retryingFetch(peer.base, 1, noJitter)('https://agent.example/a2a', init);
    await vi.advanceTimersByTimeAsync(RETRY_BACKOFF.baseMs);
    await pending;

    expect(peer.calls).toEqual([
      { input: 'https://agent.example/a2a', init },
      { input: 'https://agent.example/a2a', init },
    ]);
  });

  it('gives the last answer once the retries are used up, without reporting a wait', async () => {
    vi.useFakeTimers();
    const peer = scripted([status(503, { 'retry-after': '1' })]);
    const waits: number[] = [];
    const pending = retryingFetch(peer.base, 2, noJitter, (ms) => waits.push(ms))(
      'https://agent.example/a2a',
    );
    await vi.advanceTimersByTimeAsync(2000);

    const response = await pending;
    expect(response.status).toBe(503);
    expect(await response.text()).toBe('answer 503');
    expect(peer.calls).toHaveLength(3);
    expect(waits).toEqual([]);
  });

  it('waits as long as the agent asks, up to 2 s, before trying again', async () => {
    vi.useFakeTimers();
    const peer = scripted([status(429, { 'retry-after': '2' }), status(200)]);
    const waits: number[] = [];
    const pending = retryingFetch(peer.base, 1, noJitter, (ms) => waits.push(ms))(
      'https://agent.example/a2a',
    );

    await vi.advanceTimersByTimeAsync(MAX_INLINE_WAIT_MS - 1);
    expect(peer.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect((await pending).status).toBe(200);
    expect(waits).toEqual([]);
  });

  it('does not report a wait of 2 s or less when no retry is left', async () => {
    const peer = scripted([status(503, { 'retry-after-ms': String(MAX_INLINE_WAIT_MS) })]);
    const waits: number[] = [];

    const response = await retryingFetch(peer.base, 0, noJitter, (ms) => waits.push(ms))(
      'https://agent.example/a2a',
    );

    expect(response.status).toBe(503);
    expect(waits).toEqual([]);
  });

  it('returns an answer asking for more than 2 s at once and reports the wait', async () => {
    const peer = scripted([status(503, { 'retry-after-ms': String(MAX_INLINE_WAIT_MS + 1) })]);
    const waits: number[] = [];

    const response = await retryingFetch(peer.base, 3, noJitter, (ms) => waits.push(ms))(
      'https://agent.example/a2a',
    );

    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after-ms')).toBe('2001');
    expect(peer.calls).toHaveLength(1);
    expect(waits).toEqual([2001]);
  });

  it('discards the body of an answer it retries, and retries one without a body', async () => {
    vi.useFakeTimers();
    const cancelled: unknown[] = [];
    const body = new ReadableStream({
      cancel: (reason) => {
        cancelled.push(reason);
      },
    });
    const peer = scripted([
      () => new Response(body, { status: 503 }),
      () => new Response(null, { status: 503 }),
      status(200),
    ]);
    const pending = retryingFetch(peer.base, 2, noJitter)('https://agent.example/a2a');
    await vi.advanceTimersByTimeAsync(750);

    expect((await pending).status).toBe(200);
    expect(cancelled).toHaveLength(1);
  });

  it('retries an answer whose body fails to be discarded', async () => {
    vi.useFakeTimers();
    const body = new ReadableStream({
      cancel: () => {
        throw new Error('the stream is broken');
      },
    });
    const peer = scripted([() => new Response(body, { status: 503 }), status(200)]);
    const pending = retryingFetch(peer.base, 1, noJitter)('https://agent.example/a2a');
    await vi.advanceTimersByTimeAsync(RETRY_BACKOFF.baseMs);

    expect((await pending).status).toBe(200);
  });

  it('retries a failed connection with the same waits, then throws what fetch threw', async () => {
    vi.useFakeTimers();
    const peer = scripted([connectionRefused]);
    const pending = retryingFetch(peer.base, 2, noJitter)('https://agent.example/a2a');
    const failure = pending.catch((e: unknown) => e);

    await vi.advanceTimersByTimeAsync(249);
    expect(peer.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(peer.calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(500);
    expect(peer.calls).toHaveLength(3);
    expect(await failure).toMatchObject({ name: 'TypeError', message: 'fetch failed' });
  });

  it('throws at once an error a retry would not overcome', async () => {
    const peer = scripted([
      () => {
        throw new Error('invalid URL');
      },
    ]);

    await expect(retryingFetch(peer.base, 3, noJitter)('nowhere')).rejects.toThrow('invalid URL');
    expect(peer.calls).toHaveLength(1);
  });

  it('does not retry a request whose signal aborted it', async () => {
    const controller = new AbortController();
    const peer = scripted([
      () => {
        controller.abort(new Error('the job ended'));
        connectionRefused();
        throw new Error('unreachable');
      },
    ]);

    const request = retryingFetch(
      peer.base,
      3,
      noJitter,
    )('https://agent.example/a2a', {
      signal: controller.signal,
    });

    await expect(request).rejects.toThrow('fetch failed');
    expect(peer.calls).toHaveLength(1);
  });

  it('stops waiting between tries when the request is aborted, with the signal’s reason', async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const peer = scripted([status(503)]);
    const request = retryingFetch(
      peer.base,
      10,
      noJitter,
    )('https://agent.example/a2a', {
      signal: controller.signal,
    });
    const failure = request.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(100);

    controller.abort(new Error('the job ended'));

    expect(await failure).toMatchObject({ message: 'the job ended' });
    expect(peer.calls).toHaveLength(1);
  });
});
