import { describe, expect, it } from 'vitest';
import { parseRestWebhook } from '../../../src/channels/index.js';
import { HttpError } from '../../../src/runtime/index.js';

const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

describe('parseRestWebhook', () => {
  it('refuses metadata nested thousands deep with 400 instead of overflowing the stack', () => {
    const body = `{"sender": "deep", "message": "hi", "metadata": ${nested(4200)}}`;
    expect(() => parseRestWebhook(body, 'application/json')).toThrow(
      new HttpError(400, 'the body is nested deeper than 32 levels'),
    );
  });

  it('accepts metadata nested within 32 levels, brackets inside strings not counting', () => {
    const body = `{"sender": "ok", "message": "${'[{\\"'.repeat(40)}", "metadata": ${nested(31)}}`;
    expect(parseRestWebhook(body, 'application/json').sender).toBe('ok');
  });
});
