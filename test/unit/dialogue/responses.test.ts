import { describe, expect, it } from 'vitest';
import type { ResponseVariation } from '../../../src/assistant/index.js';
import { BotMessage } from '../../../src/dialogue/responses/botMessage.js';
import {
  fillTemplate,
  renderResponse,
  selectVariation,
} from '../../../src/dialogue/responses/render.js';

/** Freezes deeply, so a mutation of the input throws in these (strict mode) tests. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}

const texts = (variation: ResponseVariation | undefined) => variation?.text;

describe('fillTemplate', () => {
  it.each<[string, Record<string, unknown>, string]>([
    ['Hi {name}!', { name: 'Ada' }, 'Hi Ada!'],
    ['{a} and {a}', { a: 'x' }, 'x and x'],
    ['Hi {name}!', {}, 'Hi {name}!'],
    ['Hi {name}!', { name: null }, 'Hi None!'],
    ['Hi {name}!', { name: undefined }, 'Hi None!'],
    ['{v}', { v: true }, 'True'],
    ['{v}', { v: false }, 'False'],
    ['{v}', { v: 3.5 }, '3.5'],
    ['{v}', { v: 0 }, '0'],
    ['{v}', { v: [1, 'a'] }, "[1, 'a']"],
    ['{v}', { v: { a: 1, b: [true, null] } }, "{'a': 1, 'b': [True, None]}"],
    ['{v}', { v: 'costs $& $1' }, 'costs $& $1'],
    ['{ name } {1x} {na-me} {}', { name: 'Ada', '1x': 'y' }, '{ name } {1x} {na-me} {}'],
    ['/inform{"amount": {amount}}', { amount: 5 }, '/inform{"amount": 5}'],
    ['{constructor}', {}, '{constructor}'],
  ])('fills %j with %j', (text, slots, expected) => {
    expect(fillTemplate(text, slots)).toBe(expected);
  });

  it.each<[number, string]>([
    [2000, '2000.0'],
    [2000.5, '2000.5'],
    [-0, '-0.0'],
    [1e15, '1000000000000000.0'],
    [1e16, '1e+16'],
    [1.5e22, '1.5e+22'],
    [0.0001, '0.0001'],
    [0.00001, '1e-05'],
  ])("prints a float slot's %d as Python prints a float: %s", (value, expected) => {
    expect(fillTemplate('{v}', { v: value }, { v: { type: 'float' } })).toBe(expected);
  });

  it('prints a number of another slot type as it is', () => {
    expect(fillTemplate('{v}', { v: 2000 }, { v: { type: 'any' } })).toBe('2000');
  });
});

describe('selectVariation', () => {
  it('prefers a variation whose string condition holds', () => {
    const variations: ResponseVariation[] = [
      { text: 'plain' },
      { text: 'vip', condition: 'slots.vip is true and slots.points > 100' },
    ];
    expect(texts(selectVariation(variations, { slots: { vip: 'true', points: '150' } }))).toBe(
      'vip',
    );
    expect(texts(selectVariation(variations, { slots: { vip: true, points: 50 } }))).toBe('plain');
  });

  it('requires every slot check of the list form to hold exactly', () => {
    const variations: ResponseVariation[] = [
      { text: 'plain' },
      {
        text: 'gold',
        condition: [
          { type: 'slot', name: 'tier', value: 'gold' },
          { type: 'slot', name: 'member', value: true },
          { type: 'slot', name: 'banned', value: null },
        ],
      },
    ];
    const select = (slots: Record<string, unknown>) =>
      texts(selectVariation(variations, { slots }));
    expect(select({ tier: 'gold', member: true })).toBe('gold');
    expect(select({ tier: 'gold', member: 'true' })).toBe('plain');
    expect(select({ tier: 'gold', member: true, banned: false })).toBe('plain');
    expect(select({ tier: 'silver', member: true })).toBe('plain');
  });

  it('treats an empty list of slot checks as no condition', () => {
    const variations: ResponseVariation[] = [{ text: 'empty', condition: [] }];
    expect(texts(selectVariation(variations, { slots: {} }))).toBe('empty');
  });

  it('ranks conditional on channel, channel, conditional, then plain variations', () => {
    const all: ResponseVariation[] = [
      { text: 'plain' },
      { text: 'conditional', condition: 'slots.ok' },
      { text: 'channel', channel: 'slack' },
      { text: 'conditional channel', channel: 'slack', condition: 'slots.ok' },
      { text: 'other channel', channel: 'web', condition: 'slots.ok' },
    ];
    const select = (variations: ResponseVariation[], channel?: string) =>
      texts(selectVariation(variations, { slots: { ok: true }, channel }));
    expect(select(all, 'slack')).toBe('conditional channel');
    expect(select(all.slice(0, 3), 'slack')).toBe('channel');
    expect(select(all.slice(0, 2), 'slack')).toBe('conditional');
    expect(select(all.slice(0, 1), 'slack')).toBe('plain');
    expect(select(all)).toBe('conditional');
  });

  it('never picks a variation for another channel, even as the only one', () => {
    const variations: ResponseVariation[] = [{ text: 'web', channel: 'web' }];
    expect(selectVariation(variations, { slots: {}, channel: 'slack' })).toBeUndefined();
    expect(selectVariation(variations, { slots: {} })).toBeUndefined();
  });

  it('gives undefined when no variation fits', () => {
    expect(selectVariation([], { slots: {} })).toBeUndefined();
    const variations: ResponseVariation[] = [{ text: 'x', condition: 'slots.ok' }];
    expect(selectVariation(variations, { slots: { ok: false } })).toBeUndefined();
  });

  it('picks uniformly within the winning tier with the given random source', () => {
    const variations: ResponseVariation[] = [
      { text: 'a' },
      { text: 'b' },
      { text: 'c' },
      { text: 'hidden' },
    ].map((v, i) => (i < 3 ? { ...v, condition: 'slots.ok' } : v));
    const select = (random: number) =>
      texts(selectVariation(variations, { slots: { ok: true }, random: () => random }));
    expect([0, 0.34, 0.67, 0.99, 1].map(select)).toEqual(['a', 'b', 'c', 'c', 'c']);
  });
});

describe('renderResponse', () => {
  it('fills slots into text, buttons, image and every string of custom', () => {
    const variations = deepFreeze<ResponseVariation[]>([
      {
        text: 'Send {amount} to {recipient}?',
        buttons: [
          { title: 'Yes, send {amount}', payload: '/confirm{"amount": {amount}}' },
          { title: 'No', payload: '/deny' },
        ],
        image: 'https://img.example/{recipient}.png',
        custom: {
          card: { title: '{recipient}', lines: ['{amount}', 3, null, true, '{unknown}'] },
          count: 2,
        },
        metadata: { rephrase: true },
      },
    ]);
    const message = renderResponse('utter_ask_confirm', variations, {
      slots: { amount: 50, recipient: 'Ada' },
    });
    expect(message).toStrictEqual({
      response: 'utter_ask_confirm',
      text: 'Send 50 to Ada?',
      buttons: [
        { title: 'Yes, send 50', payload: '/confirm{"amount": 50}' },
        { title: 'No', payload: '/deny' },
      ],
      custom: { card: { title: 'Ada', lines: ['50', 3, null, true, '{unknown}'] }, count: 2 },
      image: 'https://img.example/Ada.png',
      metadata: { rephrase: true },
    });
    expect(BotMessage.parse(message)).toStrictEqual(message);
  });

  it('leaves out the parts a variation does not have', () => {
    const message = renderResponse('utter_greet', [{ text: 'Hi {name}' }], {
      slots: { name: null },
    });
    expect(message).toStrictEqual({ response: 'utter_greet', text: 'Hi None' });
  });

  it('does not mutate the variations or the slots', () => {
    const variations: ResponseVariation[] = [
      {
        text: '{a}',
        buttons: [{ title: '{a}', payload: '{a}' }],
        custom: { nested: ['{a}', { deep: '{a}' }] },
        metadata: { k: '{a}' },
      },
    ];
    const slots = { a: 'x', list: [1] };
    const before = structuredClone({ variations, slots });
    const message = renderResponse('utter_a', deepFreeze(variations), { slots: deepFreeze(slots) });
    expect({ variations, slots }).toStrictEqual(before);
    expect(message?.custom).toStrictEqual({ nested: ['x', { deep: 'x' }] });
    expect(message?.metadata).not.toBe(variations[0]?.metadata);
  });

  it('renders the variation the random source picks', () => {
    const variations: ResponseVariation[] = [{ text: 'one {n}' }, { text: 'two {n}' }];
    const render = (random: number) =>
      renderResponse('utter_n', variations, { slots: { n: 1 }, random: () => random })?.text;
    expect([render(0.1), render(0.9)]).toEqual(['one 1', 'two 1']);
  });

  it("prints a float slot's number as a float in Jinja too, where it still compares as a number", () => {
    const text =
      '{{ income }} {{ slots.income }} {{ "high" if income > 1000 else "low" }} {{ "set" if zero else "zero" }} {{ income is number }}';
    const message = renderResponse('utter_income', [{ text, metadata: { template: 'jinja' } }], {
      slots: { income: 2000, zero: 0 },
      slotTypes: { income: { type: 'float' }, zero: { type: 'float' } },
    });
    expect(message?.text).toBe('2000.0 2000.0 high zero True');
  });

  it('fills the variables of a response over the slots, printed as they are', () => {
    const variations: ResponseVariation[] = [
      { text: '{value} / {income}' },
      { text: '{{ value }} / {{ income }}', metadata: { template: 'jinja' } },
    ];
    const render = (random: number) =>
      renderResponse('utter_v', variations, {
        slots: { value: 1, income: 2000 },
        slotTypes: { value: { type: 'float' }, income: { type: 'float' } },
        variables: { value: 'daffodils' },
        random: () => random,
      })?.text;
    expect([render(0.1), render(0.9)]).toEqual(['daffodils / 2000.0', 'daffodils / 2000.0']);
  });

  it('gives undefined when no variation fits the channel', () => {
    const variations: ResponseVariation[] = [{ text: 'x', channel: 'web' }];
    expect(renderResponse('utter_x', variations, { slots: {}, channel: 'slack' })).toBeUndefined();
  });
});
