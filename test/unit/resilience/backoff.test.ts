import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { backoffDelay, retryWait, sleep } from '../../../src/resilience/index.js';

const noJitter = () => 0;
const mostJitter = () => 0.9999;

describe('backoffDelay', () => {
  it('doubles the wait after each failure, from the first wait', () => {
    const schedule = { baseMs: 250 };
    expect([1, 2, 3, 4].map((failures) => backoffDelay(schedule, failures))).toEqual([
      250, 500, 1000, 2000,
    ]);
  });

  it('grows by the factor it is given and stops growing at the longest wait', () => {
    const schedule = { baseMs: 1000, factor: 3, maxMs: 5000 };
    expect([1, 2, 3, 4].map((failures) => backoffDelay(schedule, failures))).toEqual([
      1000, 3000, 5000, 5000,
    ]);
  });

  it('stretches a wait by up to its jitter share, never shortening it', () => {
    const schedule = { baseMs: 1000, jitter: 0.2 };
    expect(backoffDelay(schedule, 1, noJitter)).toBe(1000);
    expect(backoffDelay(schedule, 1, () => 0.5)).toBe(1100);
    const most = backoffDelay(schedule, 1, mostJitter);
    expect(most).toBeGreaterThan(1199);
    expect(most).toBeLessThan(1200);
  });

  it('spreads callers failing together over the jitter band, within its bounds', () => {
    const schedule = { baseMs: 200, jitter: 0.2 };
    const waits = Array.from({ length: 200 }, () => backoffDelay(schedule, 2));
    for (const wait of waits) {
      expect(wait).toBeGreaterThanOrEqual(400);
      expect(wait).toBeLessThan(480);
    }
    expect(new Set(waits).size).toBeGreaterThan(100);
  });

  it('adds jitter on top of the longest wait', () => {
    const schedule = { baseMs: 1000, maxMs: 2000, jitter: 0.5 };
    expect(backoffDelay(schedule, 10, () => 0.5)).toBe(2500);
  });
});

describe('retryWait', () => {
  const schedule = { baseMs: 1000, jitter: 0.2 };

  it('gives up once the retries are used up', () => {
    const waits = [1, 2, 3, 4].map((failures) =>
      retryWait(schedule, failures, { retries: 3, random: noJitter }),
    );
    expect(waits).toEqual([1000, 2000, 4000, undefined]);
    expect(retryWait(schedule, 1, { retries: 0 })).toBeUndefined();
    expect(retryWait(schedule, 0, { random: noJitter })).toBeUndefined();
  });

  it('waits at least what a Retry-After asked for, and never less than the backoff', () => {
    expect(retryWait(schedule, 1, { retryAfterMs: 30_000, random: noJitter })).toBe(30_000);
    expect(retryWait(schedule, 3, { retryAfterMs: 10, random: noJitter })).toBe(4000);
  });

  it('does not wait when the try after the wait could not start before the deadline', () => {
    const now = () => 10_000;
    expect(retryWait(schedule, 1, { deadline: 11_500, now, random: noJitter })).toBe(1000);
    expect(retryWait(schedule, 1, { deadline: 11_000, now, random: noJitter })).toBeUndefined();
    expect(retryWait(schedule, 2, { deadline: 11_500, now, random: noJitter })).toBeUndefined();
    const asked = { deadline: 20_000, now, random: noJitter, retryAfterMs: 15_000 };
    expect(retryWait(schedule, 1, asked)).toBeUndefined();
  });

  it('reads the deadline against the real clock by default', () => {
    vi.useFakeTimers({ now: 50_000 });
    try {
      expect(retryWait(schedule, 1, { deadline: 51_500, random: noJitter })).toBe(1000);
      vi.advanceTimersByTime(600);
      expect(retryWait(schedule, 1, { deadline: 51_500, random: noJitter })).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('sleep', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('resolves once the wait is over, not before', async () => {
    let done = false;
    const waiting = sleep(1000).then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await waiting;
    expect(done).toBe(true);
  });

  it('stops waiting with the job signal’s reason when the job stops', async () => {
    const job = new AbortController();
    const waiting = sleep(60_000, job.signal);
    const stopped = new Error('the job ran out of its budget');
    job.abort(stopped);
    await expect(waiting).rejects.toBe(stopped);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('does not start waiting when the job has already stopped', async () => {
    const job = new AbortController();
    job.abort(new Error('stopped'));
    await expect(sleep(1000, job.signal)).rejects.toThrow('stopped');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('leaves no listener on a long-lived signal once the wait is over', async () => {
    const process = new AbortController();
    const remove = vi.spyOn(process.signal, 'removeEventListener');
    const waiting = sleep(10, process.signal);
    await vi.advanceTimersByTimeAsync(10);
    await waiting;
    expect(remove).toHaveBeenCalledWith('abort', expect.any(Function));
  });
});
