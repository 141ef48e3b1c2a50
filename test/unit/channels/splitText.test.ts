import { describe, expect, it } from 'vitest';
import { splitText } from '../../../src/channels/messaging/outbound.js';
import { botApiCalls } from '../../../src/channels/messaging/telegramMessages.js';

describe('splitText', () => {
  it('leaves a text within the limit whole', () => {
    expect(splitText('short', 10)).toEqual(['short']);
    expect(splitText('', 10)).toEqual(['']);
  });

  it('cuts at a paragraph, else a line, else a space, and loses no word', () => {
    expect(splitText('one two\n\nthree four', 12)).toEqual(['one two', 'three four']);
    expect(splitText('aaa bbb\nccc ddd', 10)).toEqual(['aaa bbb', 'ccc ddd']);
    expect(splitText('aaa bbb ccc ddd', 8)).toEqual(['aaa bbb', 'ccc ddd']);
    const text = Array.from({ length: 500 }, (_, i) => `word${i}`).join(' ');
    const parts = splitText(text, 100);
    expect(parts.every((p) => p.length <= 100)).toBe(true);
    expect(parts.join(' ')).toBe(text);
  });

  it('cuts a word longer than the limit where it must', () => {
    expect(splitText('x'.repeat(25), 10)).toEqual(['x'.repeat(10), 'x'.repeat(10), 'x'.repeat(5)]);
  });
});

describe('a text over a platform’s limit', () => {
  it('goes to Telegram in parts of at most 4,096 characters, its buttons under the last', () => {
    const text = Array.from({ length: 1500 }, (_, i) => `word${i}`).join(' ');
    const calls = botApiCalls(42, { text, buttons: [{ title: 'OK', payload: '/ok' }] });
    expect(calls.length).toBeGreaterThan(1);
    const texts = calls.map((c) => c.payload.text as string);
    expect(texts.every((t) => t.length <= 4096)).toBe(true);
    expect(texts.join(' ')).toBe(text);
    expect(calls.map((c) => 'reply_markup' in c.payload)).toEqual([
      ...Array(calls.length - 1).fill(false),
      true,
    ]);
  });
});
