import { describe, expect, it } from 'vitest';
import {
  type ConditionScope,
  ConditionSyntaxError,
  conditionHolds,
  evaluateCondition,
  evaluateOperand,
  parseCondition,
} from '../../../src/assistant/index.js';

const holds = (text: string, slots: Record<string, unknown> = {}) =>
  conditionHolds(text, { slots });

/** `slots.a <op> slots.b` with a and b set, so every pair of values is reachable. */
const comparing = (op: string, a: unknown, b: unknown) => holds(`slots.a ${op} slots.b`, { a, b });

describe('evaluateOperand', () => {
  it.each<[string, ConditionScope, unknown]>([
    ['slots.name', { slots: { name: 'Ada' } }, 'Ada'],
    ['slots.name', { slots: {} }, null],
    ['slots.name', { slots: { name: undefined } }, null],
    ['slots.constructor', { slots: {} }, null],
    ['context.collect.slot', { slots: {}, context: { collect: { slot: 'amount' } } }, 'amount'],
    ['context.collect.slot', { slots: {}, context: { collect: 'amount' } }, null],
    ['context.collect.slot', { slots: {}, context: { collect: null } }, null],
    ['context.collect.slot', { slots: {} }, null],
    ['"text"', { slots: {} }, 'text'],
    ['-2.5', { slots: {} }, -2.5],
    ['None', { slots: {} }, null],
    ['[slots.a, 1, "b", [true]]', { slots: { a: 'x' } }, ['x', 1, 'b', [true]]],
    ['slots.n > 1', { slots: { n: 2 } }, true],
    ['slots.code matches "("', { slots: { code: 'abc' } }, false],
  ])('gives %s the value it reads', (text, scope, expected) => {
    expect(evaluateOperand(parseCondition(text), scope)).toEqual(expected);
  });
});

describe('evaluateCondition', () => {
  it.each<[unknown, boolean]>([
    [true, true],
    [false, false],
    [1, true],
    [-0.5, true],
    [0, false],
    ['no', true],
    ['', false],
    [['a'], true],
    [[], false],
    [{}, true],
    [null, false],
    [undefined, false],
  ])('counts a bare slot holding %j as %s', (value, expected) => {
    expect(holds('slots.x', { x: value })).toBe(expected);
    expect(holds('not slots.x', { x: value })).toBe(!expected);
  });

  it('reads the flow context, and a missing context as null', () => {
    const condition = parseCondition('context.collect.slot is null');
    expect(evaluateCondition(condition, { slots: {} })).toBe(true);
    expect(evaluateCondition(condition, { slots: {}, context: { collect: { slot: 'x' } } })).toBe(
      false,
    );
  });

  it.each<[string, Record<string, unknown>, boolean]>([
    // `and` binds tighter than `or`: read as a or (b and c).
    ['slots.a or slots.b and slots.c', { a: true, b: true, c: false }, true],
    ['(slots.a or slots.b) and slots.c', { a: true, b: true, c: false }, false],
    ['slots.a and slots.b or slots.c', { a: false, b: true, c: true }, true],
    // `not` binds tighter than `and`: read as (not a) and b.
    ['not slots.a and slots.b', { a: false, b: false }, false],
    ['not (slots.a and slots.b)', { a: false, b: false }, true],
    // A comparison binds tighter than `not`: read as not (n == 1).
    ['not slots.n == 1', { n: 1 }, false],
    ['not slots.n == 1', { n: 2 }, true],
    ['not not slots.a', { a: 'x' }, true],
    ['slots.a AND slots.b OR NOT slots.c', { a: false, b: true, c: false }, true],
    ['slots.n > 1 and slots.n < 10 and slots.name == "x"', { n: 5, name: 'x' }, true],
  ])('evaluates %s with precedence', (text, slots, expected) => {
    expect(holds(text, slots)).toBe(expected);
  });

  it('stops at the first operand that decides `and` and `or`', () => {
    const slots = Object.defineProperty({ yes: true, no: false }, 'boom', {
      enumerable: true,
      get: () => {
        throw new Error('read the right operand');
      },
    });
    expect(holds('slots.yes or slots.boom', slots)).toBe(true);
    expect(holds('slots.no and slots.boom', slots)).toBe(false);
    expect(() => holds('slots.no or slots.boom', slots)).toThrow('read the right operand');
  });
});

describe('equality', () => {
  it.each<[unknown, unknown, boolean]>([
    [null, null, true],
    [null, 0, false],
    [null, '', false],
    [null, false, false],
    [null, 'None', false],
    [1, 1, true],
    [1, 2, false],
    [1, '1', true],
    [1, ' 1 ', true],
    [1.5, '1.50', true],
    [-3, '-3', true],
    [1000, '1e3', true],
    [0, '', false],
    [1, 'one', false],
    [16, '0x10', false],
    [true, 'true', true],
    [true, 'TRUE', true],
    [false, 'False', true],
    [true, 'false', false],
    [true, 'yes', false],
    [false, 'no', false],
    [true, 1, false],
    [true, true, true],
    [true, false, false],
    ['a', 'a', true],
    ['a', 'A', false],
    ['1', '1.0', false],
    [[1, 'a'], [1, 'a'], true],
    [[1, 2], [2, 1], false],
    [[1, 'a'], [1, 'b'], false],
    [[null], [{}], false],
    [[1], ['1'], false],
    [{ a: { b: [1] } }, { a: { b: [1] } }, true],
    [{ a: 1 }, { a: 1, b: 2 }, false],
    [{ a: 1 }, { b: 1 }, false],
    [{ a: 1 }, { a: 2 }, false],
    [{ a: 1, b: 2 }, { a: 1, b: 3 }, false],
    [1, {}, false],
    ['a', { 0: 'a' }, false],
    [[1], { 0: 1 }, false],
  ])('compares %j and %j as equal: %s', (a, b, expected) => {
    expect(comparing('==', a, b)).toBe(expected);
    expect(comparing('is', b, a)).toBe(expected);
    expect(comparing('!=', a, b)).toBe(!expected);
    expect(comparing('is not', b, a)).toBe(!expected);
  });

  it.each<[string, Record<string, unknown>, boolean]>([
    ['slots.amount == "100"', { amount: 100 }, true],
    ['slots.amount = 100', { amount: '100' }, true],
    ['slots.ok is true', { ok: 'True' }, true],
    ['slots.ok is not None', { ok: false }, true],
    ['slots.ok is None', {}, true],
    ['slots.tags == ["a", "b"]', { tags: ['a', 'b'] }, true],
  ])('compares a slot with a literal in %s', (text, slots, expected) => {
    expect(holds(text, slots)).toBe(expected);
  });
});

describe('ordering', () => {
  it.each<[unknown, string, unknown, boolean]>([
    [2, '<', 10, true],
    ['2', '<', '10', true],
    ['2', '<', 10, true],
    [' 3 ', '>', 2, true],
    [3, '>=', 3, true],
    [3, '>', 3, false],
    [3, '<=', '3.0', true],
    [-1.5, '<', -1, true],
    ['apple', '<', 'banana', true],
    ['b', '<', 'a', false],
    ['a', '<=', 'a', true],
    ['', '<', 'a', true],
    ['a', '<', 1, false],
    ['a', '>', 1, false],
    ['a', '<=', 1, false],
    ['1', '<', 'a', true],
    ['a', '<=', null, false],
    [null, '>=', 'a', false],
    [null, '<', 1, false],
    [1, '>', null, false],
    [null, '>=', null, false],
    [true, '>', false, false],
    [Number.NaN, '<', 1, false],
    [Number.POSITIVE_INFINITY, '>', 1, false],
    [[2], '>', [1], false],
  ])('compares %j %s %j as %s', (a, op, b, expected) => {
    expect(comparing(op, a, b)).toBe(expected);
  });
});

describe('membership', () => {
  it.each<[unknown, string, unknown, boolean]>([
    ['a', 'in', ['a', 'b'], true],
    ['c', 'in', ['a', 'b'], false],
    ['1', 'in', [1, 2], true],
    [true, 'in', ['true'], true],
    [null, 'in', ['a', null], true],
    [null, 'in', ['a'], false],
    [['a'], 'in', [['a'], ['b']], true],
    ['ell', 'in', 'hello', true],
    ['x', 'in', 'hello', false],
    [1, 'in', 'a1', false],
    ['a', 'in', null, false],
    ['a', 'not in', null, true],
    ['a', 'in', 5, false],
    ['a', 'in', { a: 1 }, false],
    ['c', 'not in', ['a', 'b'], true],
    ['a', 'not in', ['a', 'b'], false],
    ['ell', 'not in', 'hello', false],
    [['a', 'b'], 'contains', 'a', true],
    [[1, 2], 'contains', '2', true],
    [[1, 2], 'contains', 3, false],
    ['hello', 'contains', 'ell', true],
    ['hello', 'contains', 'xyz', false],
    ['a1', 'contains', 1, false],
    [null, 'contains', 'a', false],
    [{ a: 1 }, 'contains', 'a', false],
    ['12345', 'matches', '^\\d+$', true],
    ['12a45', 'matches', '^\\d+$', false],
    ['abc', 'matches', 'b', true],
    ['abc', 'matches', '(', false],
    [123, 'matches', '\\d', false],
    ['a1', 'matches', 1, false],
    [null, 'matches', '.*', false],
    ['abc', 'matches', null, false],
  ])('evaluates %j %s %j as %s', (a, op, b, expected) => {
    expect(comparing(op, a, b)).toBe(expected);
  });

  it('reads list and regex literals written in the condition', () => {
    expect(holds('slots.size in ["small", "medium"]', { size: 'medium' })).toBe(true);
    expect(holds('slots.size not in ("small", "medium")', { size: 'large' })).toBe(true);
    expect(holds('slots.code matches "^[A-Z]{3}$"', { code: 'EUR' })).toBe(true);
    expect(holds('slots.code matches "^[A-Z]{3}$"', { code: 'EURO' })).toBe(false);
  });
});

describe('conditionHolds', () => {
  it('throws ConditionSyntaxError on every evaluation of a condition that does not parse', () => {
    expect(() => holds('slots.a ==')).toThrow(ConditionSyntaxError);
    expect(() => holds('slots.a ==')).toThrow(ConditionSyntaxError);
  });

  it('evaluates a cached condition against the scope of each call', () => {
    expect(holds('slots.n > 1', { n: 2 })).toBe(true);
    expect(holds('slots.n > 1', { n: 0 })).toBe(false);
  });

  it('keeps evaluating correctly past the cache bound', () => {
    for (let i = 0; i < 1100; i++) expect(holds(`slots.n == ${i}`, { n: i })).toBe(true);
    expect(holds('slots.n == 0', { n: 0 })).toBe(true);
    expect(holds('slots.n == 0', { n: 1 })).toBe(false);
  });
});

/** mulberry32: a small seeded PRNG, so a failing case reproduces. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const VALUES: readonly unknown[] = [
  null,
  true,
  false,
  0,
  1,
  -2.5,
  '',
  'a',
  '1',
  ' 1 ',
  'true',
  'False',
  [],
  [1],
  ['a', 'b'],
  { k: 1 },
];
const ATOMS = [
  'slots.a',
  'slots.b == slots.c',
  'slots.a < 1',
  'slots.b in ["a", 1]',
  'slots.c contains "a"',
  'slots.a is None',
  'slots.b >= slots.c',
];

describe('properties', () => {
  const random = prng(20240611);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const randomSlots = () => ({ a: pick(VALUES), b: pick(VALUES), c: pick(VALUES) });
  const randomCondition = (depth: number): string => {
    const roll = random();
    if (depth === 0 || roll < 0.4) return pick(ATOMS);
    if (roll < 0.6) return `not (${randomCondition(depth - 1)})`;
    const op = roll < 0.8 ? 'and' : 'or';
    return `(${randomCondition(depth - 1)}) ${op} (${randomCondition(depth - 1)})`;
  };
  const randomNumber = () => {
    const n = (random() - 0.5) * 200;
    return random() < 0.5 ? Math.round(n) : n;
  };

  it('orders random numbers, and numeric strings, as JavaScript does', () => {
    for (let i = 0; i < 300; i++) {
      const a = randomNumber();
      const b = random() < 0.1 ? a : randomNumber();
      expect(comparing('<', a, b)).toBe(a < b);
      expect(comparing('<=', String(a), b)).toBe(a <= b);
      expect(comparing('>', a, String(b))).toBe(a > b);
      expect(comparing('>=', String(a), String(b))).toBe(a >= b);
    }
  });

  it('negates with not and obeys De Morgan over random conditions and slots', () => {
    for (let i = 0; i < 300; i++) {
      const [x, y] = [randomCondition(2), randomCondition(2)];
      const slots = randomSlots();
      const truth = (text: string) => holds(text, slots);
      expect(truth(`not (${x})`)).toBe(!truth(x));
      expect(truth(`not ((${x}) and (${y}))`)).toBe(truth(`(not (${x})) or (not (${y}))`));
      expect(truth(`not ((${x}) or (${y}))`)).toBe(truth(`(not (${x})) and (not (${y}))`));
      expect(truth(`(${x}) and (${y})`)).toBe(truth(`(${y}) and (${x})`));
    }
  });

  it('compares random values symmetrically', () => {
    for (let i = 0; i < 300; i++) {
      const { a, b } = randomSlots();
      expect(comparing('==', a, b)).toBe(comparing('==', b, a));
      expect(comparing('!=', a, b)).toBe(!comparing('==', a, b));
      expect(comparing('<', a, b)).toBe(comparing('>', b, a));
      expect(comparing('<=', a, b)).toBe(comparing('>=', b, a));
      expect(comparing('==', a, a)).toBe(true);
    }
  });
});
