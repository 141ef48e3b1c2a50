import { describe, expect, it } from 'vitest';
import { masker } from '../../../src/local/inspect/inspector.js';

describe('the inspector’s masking', () => {
  const mask = masker(['sk-live-1234567890', 'abc']);

  it('masks secret values wherever they appear in text, and keys named like credentials', () => {
    expect(
      mask({
        args: '{"key": "sk-live-1234567890"}',
        nested: [{ authorization: 'Bearer xyz', api_key: 42, token: { kept: 'as an object' } }],
        plain: 'nothing secret',
      }),
    ).toEqual({
      args: '{"key": "••••••"}',
      nested: [{ authorization: '••••••', api_key: '••••••', token: { kept: 'as an object' } }],
      plain: 'nothing secret',
    });
  });

  it('leaves values too short to look for alone', () => {
    expect(mask('abc and abcdef')).toBe('abc and abcdef');
  });
});
