import { describe, expect, it } from 'vitest';
import {
  type Condition,
  ConditionSyntaxError,
  parseCondition,
  referencedSlots,
} from '../../../src/assistant/index.js';

const slot = (name: string) => expect.objectContaining({ type: 'slot', name });
const lit = (value: unknown) => ({ type: 'literal', value });

describe('parseCondition', () => {
  it.each<[string, unknown]>([
    ['slots.x is not null', { type: 'compare', op: 'is not', left: slot('x'), right: lit(null) }],
    ['slots.x is None', { type: 'compare', op: 'is', left: slot('x'), right: lit(null) }],
    ['slots.x = "a"', { type: 'compare', op: '==', left: slot('x'), right: lit('a') }],
    ["slots.x != 'b'", { type: 'compare', op: '!=', left: slot('x'), right: lit('b') }],
    ['slots.n >= -2.5', { type: 'compare', op: '>=', left: slot('n'), right: lit(-2.5) }],
    ['slots.ok == True', { type: 'compare', op: '==', left: slot('ok'), right: lit(true) }],
    ['slots.ok == false', { type: 'compare', op: '==', left: slot('ok'), right: lit(false) }],
    [
      'slots.c in ["a", "b"]',
      {
        type: 'compare',
        op: 'in',
        left: slot('c'),
        right: { type: 'list', items: [lit('a'), lit('b')] },
      },
    ],
    [
      'slots.c not in []',
      { type: 'compare', op: 'not in', left: slot('c'), right: { type: 'list', items: [] } },
    ],
    [
      'context.collect.x == null',
      {
        type: 'compare',
        op: '==',
        left: { type: 'context', path: ['collect', 'x'] },
        right: lit(null),
      },
    ],
  ])('parses %s', (text, expected) => {
    expect(parseCondition(text)).toEqual(expected);
  });

  it('binds not tighter than and, and and tighter than or', () => {
    const parsed = parseCondition('not slots.a and slots.b or slots.c');
    expect(parsed).toEqual({
      type: 'or',
      left: { type: 'and', left: { type: 'not', operand: slot('a') }, right: slot('b') },
      right: slot('c'),
    });
  });

  it('lets parentheses override precedence', () => {
    const parsed = parseCondition('slots.a and (slots.b or slots.c)');
    expect(parsed).toMatchObject({ type: 'and', right: { type: 'or' } });
  });

  it('accepts keywords in any case', () => {
    expect(parseCondition('slots.a AND NOT slots.b')).toMatchObject({
      type: 'and',
      right: { type: 'not' },
    });
  });

  it('lists the slots a condition reads, with their offsets', () => {
    const condition: Condition = parseCondition('slots.a > 1 or slots.bc is null');
    expect(referencedSlots(condition)).toEqual([
      { name: 'a', offset: 6 },
      { name: 'bc', offset: 21 },
    ]);
  });

  it('lists the slots read inside negations and lists, and none for the flow context', () => {
    const condition = parseCondition('not slots.a and context.collect.x in [slots.b, "c"]');
    expect(referencedSlots(condition)).toEqual([
      { name: 'a', offset: 10 },
      { name: 'b', offset: 44 },
    ]);
  });

  it.each([
    ['slots.x ==', 10, /unexpected end of condition/],
    ['slots.x == yes', 11, /"yes" is not a value: write slots\.yes for a slot or "yes" for text/],
    ['slots.x and', 11, /unexpected end of condition/],
    ['(slots.x', 8, /unexpected end of condition/],
    ['slots.x == )', 11, /unexpected "\)" at column 12$/],
  ])('rejects %s at offset %i', (text, offset, message) => {
    let error: unknown;
    try {
      parseCondition(text);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConditionSyntaxError);
    expect((error as ConditionSyntaxError).offset).toBe(offset);
    expect((error as Error).message).toMatch(message);
  });

  it('names its error and keeps the parser error as the cause', () => {
    let error: unknown;
    try {
      parseCondition('slots.x >');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConditionSyntaxError);
    expect((error as Error).name).toBe('ConditionSyntaxError');
    expect((error as Error).cause).toBeInstanceOf(Error);
  });
});
