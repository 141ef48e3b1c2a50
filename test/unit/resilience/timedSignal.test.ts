import { getEventListeners } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { linkedSignal, timedSignal } from '../../../src/resilience/index.js';

describe('timedSignal', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('aborts with a TimeoutError once its time has passed, and not before', () => {
    const { signal } = timedSignal(1_000);

    vi.advanceTimersByTime(999);
    expect(signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);

    expect(signal.aborted).toBe(true);
    expect(signal.reason).toMatchObject({ name: 'TimeoutError' });
  });

  it('aborts with the reason it is given when its time has passed', () => {
    const reason = new Error('the budget is spent');

    const { signal } = timedSignal(10, undefined, () => reason);
    vi.advanceTimersByTime(10);

    expect(signal.reason).toBe(reason);
  });

  it('aborts with its parent’s reason, at once when the parent has already aborted', () => {
    const parent = new AbortController();
    const stopped = new AbortController();
    stopped.abort(new Error('stopped before'));

    const timed = timedSignal(1_000, parent.signal);
    const late = timedSignal(1_000, stopped.signal);
    parent.abort(new Error('stopped'));

    expect(timed.signal.reason).toEqual(new Error('stopped'));
    expect(late.signal.reason).toEqual(new Error('stopped before'));
  });

  it('aborts now when asked to', () => {
    const timed = timedSignal(1_000);

    timed.abort('hard stop');

    expect(timed.signal.reason).toBe('hard stop');
  });

  it('leaves no timer and no listener behind once disposed of', () => {
    const parent = new AbortController();
    const timed = timedSignal(1_000, parent.signal);

    timed.dispose();
    parent.abort(new Error('stopped'));
    vi.advanceTimersByTime(1_000);

    expect(vi.getTimerCount()).toBe(0);
    expect(timed.signal.aborted).toBe(false);
  });
});

describe('linkedSignal', () => {
  it('aborts with its parent’s reason, at once when the parent has already aborted', () => {
    const parent = new AbortController();
    const stopped = new AbortController();
    stopped.abort(new Error('stopped before'));

    const linked = linkedSignal(parent.signal);
    const late = linkedSignal(stopped.signal);
    expect(linked.signal.aborted).toBe(false);
    parent.abort(new Error('stopped'));

    expect(linked.signal.reason).toEqual(new Error('stopped'));
    expect(late.signal.reason).toEqual(new Error('stopped before'));
  });

  it('is a signal of its own: aborting it leaves the parent running', () => {
    const parent = new AbortController();
    const linked = linkedSignal(parent.signal);

    linked.abort('this call only');

    expect(linked.signal.reason).toBe('this call only');
    expect(parent.signal.aborted).toBe(false);
  });

  it('leaves no listener on its parent once disposed of, and no longer follows it', () => {
    const parent = new AbortController();
    const linked = linkedSignal(parent.signal);
    expect(getEventListeners(parent.signal, 'abort')).toHaveLength(1);

    linked.dispose();
    parent.abort(new Error('stopped'));

    expect(getEventListeners(parent.signal, 'abort')).toHaveLength(0);
    expect(linked.signal.aborted).toBe(false);
  });

  it('works without a parent', () => {
    const linked = linkedSignal();

    linked.dispose();
    linked.abort('now');

    expect(linked.signal.reason).toBe('now');
  });
});
