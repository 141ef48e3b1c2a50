import { describe, expect, it } from 'vitest';
import { MAX_RETRIES, retryDelay } from '../../../src/runtime/index.js';

describe('retryDelay', () => {
  it('doubles from one second for each failure, then gives up', () => {
    const delays = [1, 2, 3, 4].map((failures) => retryDelay(failures, () => 0));
    expect(delays).toEqual([1000, 2000, 4000, undefined]);
    expect(retryDelay(0, () => 0)).toBeUndefined();
    expect(MAX_RETRIES).toBe(3);
  });

  it('stretches each delay by up to a fifth at random, so failing runs spread out', () => {
    expect([1, 2, 3].map((failures) => retryDelay(failures, () => 0.9999))).toEqual([
      1200, 2400, 4800,
    ]);
    expect(retryDelay(1, () => 0.5)).toBe(1100);
  });

  it('waits at least what the failure asked for, and never less than the backoff', () => {
    expect(retryDelay(1, () => 0, 30_000)).toBe(30_000);
    expect(retryDelay(3, () => 0, 10)).toBe(4000);
    expect(retryDelay(4, () => 0, 30_000)).toBeUndefined();
  });
});
