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
      args: '{"key":"••••••"}',
      nested: [{ authorization: '••••••', api_key: '••••••', token: { kept: 'as an object' } }],
      plain: 'nothing secret',
    });
  });

  it('leaves values too short to look for alone', () => {
    expect(mask('abc and abcdef')).toBe('abc and abcdef');
  });
});

describe('the inspector’s masking of slots and tool arguments', () => {
  const mask = masker([]);

  it('masks the value of a {name, value} pair named like a credential, and JSON in a string', () => {
    expect(
      mask({
        slots: [
          { name: 'account_password', value: 'hunter2hunter2' },
          { name: 'city', value: 'Hamburg' },
        ],
        arguments: '{"api_token":"tok-7777","city":"Hamburg"}',
        notJson: '{ not json',
      }),
    ).toEqual({
      slots: [
        { name: 'account_password', value: '••••••' },
        { name: 'city', value: 'Hamburg' },
      ],
      arguments: '{"api_token":"••••••","city":"Hamburg"}',
      notJson: '{ not json',
    });
  });
});
