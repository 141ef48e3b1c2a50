import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { within } from '../../../src/resilience/index.js';

/** A promise settled by hand, like a peer's answer that arrives when the test says. */
function pending<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('within', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 1_000_000 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('gives the answer that comes before the deadline, and leaves no timer behind', async () => {
    const answer = pending<string>();
    const job = new AbortController();
    const waiting = within(answer.promise, { signal: job.signal, deadline: Date.now() + 5000 });
    await vi.advanceTimersByTimeAsync(4000);
    answer.resolve('done');
    await expect(waiting).resolves.toBe('done');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('passes on the failure of the call it waits for', async () => {
    const answer = pending<string>();
    const waiting = within(answer.promise, { deadline: Date.now() + 5000 });
    answer.reject(new Error('the server refused'));
    await expect(waiting).rejects.toThrow('the server refused');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('stops waiting with the caller’s error once the deadline passes, not before', async () => {
    const answer = pending<string>();
    const waiting = within(answer.promise, {
      deadline: Date.now() + 5000,
      timedOut: () => new Error('the tool took longer than its tool_timeout of 5 s'),
    });
    const outcome = waiting.then(
      () => 'answered',
      (error: Error) => error.message,
    );
    await vi.advanceTimersByTimeAsync(4999);
    answer.resolve('late');
    expect(await outcome).toBe('answered');

    const hung = within(new Promise<string>(() => {}), {
      deadline: Date.now() + 5000,
      timedOut: () => new Error('the tool took longer than its tool_timeout of 5 s'),
    });
    const check = expect(hung).rejects.toThrow('took longer than its tool_timeout of 5 s');
    await vi.advanceTimersByTimeAsync(5000);
    await check;
  });

  it('times out at once when the deadline has already passed', async () => {
    const hung = within(new Promise<string>(() => {}), { deadline: Date.now() - 1 });
    const check = expect(hung).rejects.toThrow('the deadline passed');
    await vi.advanceTimersByTimeAsync(0);
    await check;
  });

  it('reads the deadline against the clock it is given', async () => {
    const hung = within(new Promise<string>(() => {}), {
      deadline: 10_000,
      now: () => 9_000,
      timedOut: () => new Error('connecting took longer than the time left'),
    });
    const check = expect(hung).rejects.toThrow('connecting took longer');
    await vi.advanceTimersByTimeAsync(999);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    await check;
  });

  it('stops waiting with the signal’s reason when the job stops, while the shared call runs on', async () => {
    const answer = pending<string>();
    const first = new AbortController();
    const second = new AbortController();
    const stopped = new Error('the job was stopped');
    const waitingFirst = within(answer.promise, { signal: first.signal });
    const waitingSecond = within(answer.promise, { signal: second.signal });
    first.abort(stopped);
    await expect(waitingFirst).rejects.toBe(stopped);
    answer.resolve('connected');
    await expect(waitingSecond).resolves.toBe('connected');
  });

  it('does not wait at all when the job has already stopped', async () => {
    const job = new AbortController();
    job.abort(new Error('stopped before'));
    await expect(within(new Promise(() => {}), { signal: job.signal })).rejects.toThrow(
      'stopped before',
    );
    expect(vi.getTimerCount()).toBe(0);
  });

  it('leaves no listener on a long-lived signal once the answer is in', async () => {
    const process = new AbortController();
    const added = vi.spyOn(process.signal, 'addEventListener');
    const removed = vi.spyOn(process.signal, 'removeEventListener');
    for (let i = 0; i < 20; i++) {
      await within(Promise.resolve(i), { signal: process.signal });
    }
    expect(added).toHaveBeenCalledTimes(20);
    expect(removed).toHaveBeenCalledTimes(20);
  });

  it('is the promise itself when there is neither signal nor deadline', () => {
    const answer = Promise.resolve(1);
    expect(within(answer, {})).toBe(answer);
  });
});
