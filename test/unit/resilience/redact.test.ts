import { describe, expect, it } from 'vitest';
import {
  MAX_REASON_CHARS,
  REDACTED,
  Redactor,
  redact,
  safeReason,
} from '../../../src/resilience/index.js';

describe('redact', () => {
  it('removes an API key a peer echoed in its error message', () => {
    const key = 'sk-live-4711-abcdef';
    expect(redact(`Incorrect API key provided: ${key}. Check it.`, [key])).toBe(
      `Incorrect API key provided: ${REDACTED}. Check it.`,
    );
  });

  it('removes a token echoed back in a URL, percent-encoded or as a form value', () => {
    const token = 'a+b/c=d e&f';
    const url = new URL('http://actions.test/webhook');
    url.searchParams.set('token', token);
    const encoded = `GET /webhook?token=${encodeURIComponent(token)} refused`;
    for (const echoed of [`refused ${url.href}`, encoded]) {
      const clean = redact(echoed, [token]);
      expect(clean).toContain(REDACTED);
      expect(clean).not.toContain('c=d');
    }
  });

  it('removes a secret echoed inside JSON, with its quotes and backslashes escaped', () => {
    const secret = 'pa"ss\\word';
    const echoed = JSON.stringify({ error: `bad password ${secret}` });
    expect(redact(echoed, [secret])).toBe(
      JSON.stringify({ error: 'bad password x' }).replace('x', REDACTED),
    );
  });

  it('replaces a secret that contains another one whole', () => {
    expect(redact('token abcd-efgh', ['abcd', 'abcd-efgh'])).toBe(`token ${REDACTED}`);
  });

  it('leaves texts alone for values too short to tell from ordinary words', () => {
    expect(redact('the key is bad', ['key', '', undefined])).toBe('the key is bad');
  });
});

describe('Redactor', () => {
  it('removes the credentials a peer was sent, and only those', () => {
    const sent = new Redactor();
    sent.remember('token-one-1111');
    expect(sent.redact('rejected token-one-1111 and token-two-2222')).toBe(
      `rejected ${REDACTED} and token-two-2222`,
    );
  });

  it('keeps the newest renewed tokens and forgets the oldest', () => {
    const sent = new Redactor(2);
    for (const token of ['token-a-1111', 'token-b-2222', 'token-c-3333']) sent.remember(token);
    sent.remember('token-b-2222');
    expect(sent.redact('token-a-1111 token-b-2222 token-c-3333')).toBe(
      `token-a-1111 ${REDACTED} ${REDACTED}`,
    );
  });

  it('gives the value back as it remembers it, for the header that carries it', () => {
    expect(new Redactor().remember('Bearer x')).toBe('Bearer x');
  });
});

describe('safeReason', () => {
  const token = 'tok-0123456789abcdefghij';

  it('leaves no part of a credential behind where a long reason is cut', () => {
    const echoed = `${'x'.repeat(MAX_REASON_CHARS - 10)} ${token} and more`;
    const reason = safeReason(echoed, (text) => redact(text, [token]));
    expect(reason).not.toContain(token.slice(0, 8));
    expect(reason.length).toBeLessThanOrEqual(MAX_REASON_CHARS + 1);
    expect(reason.endsWith('…')).toBe(true);
  });

  it('keeps a short reason whole', () => {
    expect(safeReason('the server went away', (text) => text)).toBe('the server went away');
  });
});
