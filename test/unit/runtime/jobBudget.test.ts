import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { JobDeadlineError, jobScope } from '../../../src/runtime/index.js';

describe('jobScope', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('aborts the job when its budget has passed, saying which budget', () => {
    const scope = jobScope(1_000, 50_000);
    expect(scope.deadline).toBe(51_000);
    vi.advanceTimersByTime(999);
    expect(scope.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(scope.signal.aborted).toBe(true);
    const reason = scope.signal.reason as unknown;
    expect(reason).toBeInstanceOf(JobDeadlineError);
    expect(reason).toMatchObject({
      name: 'JobDeadlineError',
      budgetMs: 1_000,
      message: 'the job ran out of its 1000 ms budget',
    });
    scope.dispose();
  });

  it('aborts the job with the reason of a stop of the process', () => {
    const stop = new AbortController();
    const scope = jobScope(1_000, 0, stop.signal);
    expect(scope.signal.aborted).toBe(false);
    const reason = new Error('shutting down');
    stop.abort(reason);
    expect(scope.signal.aborted).toBe(true);
    expect(scope.signal.reason).toBe(reason);
    scope.dispose();
  });

  it('starts aborted when the process is already stopping', () => {
    const stop = new AbortController();
    const reason = new Error('already stopping');
    stop.abort(reason);
    const scope = jobScope(1_000, 0, stop.signal);
    expect(scope.signal.aborted).toBe(true);
    expect(scope.signal.reason).toBe(reason);
    scope.dispose();
  });

  it('leaves the job alone once disposed: neither its budget nor a stop aborts it', () => {
    const stop = new AbortController();
    const scope = jobScope(1_000, 0, stop.signal);
    scope.dispose();
    vi.advanceTimersByTime(5_000);
    stop.abort();
    expect(scope.signal.aborted).toBe(false);
  });
});
