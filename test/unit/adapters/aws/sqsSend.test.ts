import { describe, expect, it } from 'vitest';
import { delaySeconds, MAX_DELAY_SECONDS } from '../../../../src/adapters/aws/sqsSend.js';

describe('delaySeconds', () => {
  const now = 1_000_000;

  it('is 0 for a job that is due or has no time set', () => {
    expect([
      delaySeconds(undefined, now),
      delaySeconds(now, now),
      delaySeconds(now - 1, now),
    ]).toEqual([0, 0, 0]);
  });

  it('rounds a wait up to whole seconds', () => {
    expect(delaySeconds(now + 1, now)).toBe(1);
    expect(delaySeconds(now + 2500, now)).toBe(3);
  });

  it('never asks SQS for more than its 15-minute limit: longer waits pass through again', () => {
    expect(MAX_DELAY_SECONDS).toBe(900);
    expect(delaySeconds(now + 2 * 3600 * 1000, now)).toBe(900);
    expect(delaySeconds(now + 900_000, now)).toBe(900);
  });
});
