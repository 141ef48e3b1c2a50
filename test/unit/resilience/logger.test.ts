import { Logger as PowertoolsLogger } from '@aws-lambda-powertools/logger';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { describeError, type Logger } from '../../../src/resilience/index.js';

describe('Logger', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("takes Powertools' logger as it is, its fields landing in the JSON line", () => {
    const written: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    const logger: Logger = new PowertoolsLogger({ serviceName: 'switchboard', logLevel: 'INFO' });
    logger.info('job done', { jobId: 'j-1', outcome: 'completed' });
    const line = JSON.parse(written.join('')) as Record<string, unknown>;
    expect(line).toMatchObject({ level: 'INFO', message: 'job done', jobId: 'j-1' });
  });
});

describe('describeError', () => {
  it('names an error by its class and message, never by the data that caused it', () => {
    const cause = { secret: 'value' };
    expect(describeError(new RangeError('too far', { cause }))).toBe('RangeError: too far');
  });

  it('gives a thrown non-error as text', () => {
    expect(describeError('plain refusal')).toBe('plain refusal');
  });
});
