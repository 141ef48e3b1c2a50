import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseRetryAfter } from '../../../src/resilience/index.js';

const headers = (entries: Record<string, string>) => new Headers(entries);

describe('parseRetryAfter', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-03-01T12:00:00Z'));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('waits the seconds a busy server asks for', () => {
    expect(parseRetryAfter(headers({ 'retry-after': '120' }))).toBe(120_000);
    expect(parseRetryAfter(headers({ 'retry-after': '0.5' }))).toBe(500);
  });

  it('waits until the HTTP date a server names, and not at all for one already past', () => {
    const at = headers({ 'retry-after': 'Sun, 01 Mar 2026 12:00:30 GMT' });
    expect(parseRetryAfter(at)).toBe(30_000);
    vi.advanceTimersByTime(10_000);
    expect(parseRetryAfter(at)).toBe(20_000);
    expect(parseRetryAfter(headers({ 'retry-after': 'Sun, 01 Mar 2026 11:00:00 GMT' }))).toBe(0);
  });

  it('prefers the milliseconds of retry-after-ms, as OpenAI-compatible servers send them', () => {
    const both = headers({ 'retry-after-ms': '250', 'retry-after': '60' });
    expect(parseRetryAfter(both)).toBe(250);
  });

  it('asks for no wait when the header is missing, negative or unreadable', () => {
    expect(parseRetryAfter(undefined)).toBeUndefined();
    expect(parseRetryAfter(headers({}))).toBeUndefined();
    expect(parseRetryAfter(headers({ 'retry-after': '-5' })) ?? 0).toBe(0);
    expect(parseRetryAfter(headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(parseRetryAfter(headers({ 'retry-after-ms': 'x', 'retry-after': '2' }))).toBe(2000);
  });

  it('counts an HTTP date from the clock it is given', () => {
    const at = headers({ 'retry-after': 'Sun, 01 Mar 2026 12:01:00 GMT' });
    expect(parseRetryAfter(at, () => Date.parse('2026-03-01T12:00:45Z'))).toBe(15_000);
  });
});
