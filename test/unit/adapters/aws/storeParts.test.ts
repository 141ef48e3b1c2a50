import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isExpired, padVersion } from '../../../../src/adapters/aws/dynamoKeys.js';
import {
  delaySeconds,
  JobEnqueueError,
  MAX_DELAY_SECONDS,
  sqsId,
} from '../../../../src/adapters/aws/sqsSend.js';
import { StoredDataError } from '../../../../src/adapters/aws/storeErrors.js';

describe('StoredDataError', () => {
  it('names the item and says why it is invalid, never echoing what is stored', () => {
    let notJson: unknown;
    try {
      JSON.parse('{"secret": "sk-live-abc"');
    } catch (error) {
      notJson = error;
    }
    const invalid = z.object({ version: z.number() }).safeParse({ version: 'x' }).error;
    const errors = [
      new StoredDataError('ada', 'head', { cause: notJson }),
      new StoredDataError('ada', 'evt#1', { cause: invalid }),
      new StoredDataError('ada', 'run#r', { cause: new Error('a run record of version 9') }),
      new StoredDataError('ada', 'reply#t', { cause: 'odd' }),
    ];

    expect(errors.map((e) => e.message)).toEqual([
      'stored item head of conversation ada is invalid: not JSON',
      expect.stringMatching(
        /^stored item evt#1 of conversation ada is invalid: ✖ .+ → at version$/,
      ),
      'stored item run#r of conversation ada is invalid: a run record of version 9',
      'stored item reply#t of conversation ada is invalid: odd',
    ]);
    expect(errors[0]?.message).not.toContain('sk-live');
    expect(errors[1]?.message).not.toContain('\n');
    expect(errors.map((e) => [e.name, e.conversationId, e.cause !== undefined])).toEqual([
      ['StoredDataError', 'ada', true],
      ['StoredDataError', 'ada', true],
      ['StoredDataError', 'ada', true],
      ['StoredDataError', 'ada', true],
    ]);
  });
});

describe('DynamoDB keys', () => {
  it('pads versions so that sort keys order as numbers, and refuses what is not a version', () => {
    expect(padVersion(0)).toBe('000000000000');
    expect(padVersion(42)).toBe('000000000042');
    for (const bad of [-1, 1.5, Number.NaN, 2 ** 53]) {
      expect(() => padVersion(bad)).toThrow(
        new RangeError(`version ${bad} is not a non-negative integer`),
      );
    }
  });

  it('counts an item as expired from the second its ttl names', () => {
    const ttl = 1_700_000_000;
    expect(isExpired({ ttl }, ttl * 1000 - 1)).toBe(false);
    expect(isExpired({ ttl }, ttl * 1000)).toBe(true);
    expect(isExpired({ ttl: String(ttl) }, ttl * 1000 + 5000)).toBe(false);
    expect(isExpired({}, ttl * 1000)).toBe(false);
  });
});

describe('SQS sending', () => {
  it('delays a job only while it is not yet due, rounding up, at most 900 s', () => {
    expect(delaySeconds(undefined, 1000)).toBe(0);
    expect(delaySeconds(1000, 1000)).toBe(0);
    expect(delaySeconds(1001, 1000)).toBe(1);
    expect(delaySeconds(1000 + 2 * 3600_000, 1000)).toBe(MAX_DELAY_SECONDS);
  });

  it('uses an id as it is when SQS accepts it, and a stable hash otherwise', () => {
    expect(sqsId('ada:1')).toBe('ada:1');
    expect(sqsId('x'.repeat(128))).toBe('x'.repeat(128));
    for (const odd of [
      'x'.repeat(129),
      'with space',
      'tab\tin',
      '',
      'ünïcode',
      ' lead',
      'trail ',
    ]) {
      const id = sqsId(odd);
      expect(id).toMatch(/^h-[0-9a-f]{64}$/);
      expect(sqsId(odd)).toBe(id);
    }
    expect(sqsId('with space')).not.toBe(sqsId('with  space'));
  });

  it('lists each refused job with its code and message', () => {
    const error = new JobEnqueueError('https://sqs/q', [
      { jobId: 'j1', code: 'InvalidParameterValue', message: 'too big' },
      { jobId: 'j2', code: 'Throttled', message: '' },
    ]);
    expect(error.name).toBe('JobEnqueueError');
    expect(error.message).toBe(
      'queue https://sqs/q refused 2 job(s): j1 (InvalidParameterValue: too big), j2 (Throttled: )',
    );
  });
});
