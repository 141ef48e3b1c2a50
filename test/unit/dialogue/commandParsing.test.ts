import { describe, expect, it } from 'vitest';
import type { SlotDefinition } from '../../../src/assistant/index.js';
import { coerceSlotValue } from '../../../src/dialogue/commands/coerce.js';
import type { Command } from '../../../src/dialogue/commands/command.js';
import { parseDeterministicMessage } from '../../../src/dialogue/commands/deterministic.js';
import { parseCommandDsl } from '../../../src/dialogue/commands/parseDsl.js';

const cannotHandle = (reason: RegExp) => [
  { command: 'cannot handle', reason: expect.stringMatching(reason) },
];

describe('parseCommandDsl', () => {
  it.each<[string, Command]>([
    ['start flow transfer_money', { command: 'start flow', flow: 'transfer_money' }],
    ['set slot amount 50', { command: 'set slot', name: 'amount', value: '50' }],
    ['set slot city New York', { command: 'set slot', name: 'city', value: 'New York' }],
    ['set slot city "New York"', { command: 'set slot', name: 'city', value: 'New York' }],
    ['set slot note \'a "b" c\'', { command: 'set slot', name: 'note', value: 'a "b" c' }],
    ['set slot city', { command: 'set slot', name: 'city', value: null }],
    ['cancel flow', { command: 'cancel flow' }],
    ['offtopic reply', { command: 'offtopic reply' }],
    ['hand over', { command: 'hand over' }],
    ['repeat message', { command: 'repeat message' }],
    ['continue agent', { command: 'continue agent' }],
    ['restart agent', { command: 'restart agent' }],
    ['disambiguate flows a b', { command: 'disambiguate flows', flows: ['a', 'b'] }],
    ['disambiguate flows a, b,c', { command: 'disambiguate flows', flows: ['a', 'b', 'c'] }],
  ])('reads %j', (line, command) => {
    expect(parseCommandDsl(line)).toEqual([command]);
  });

  it.each<[string, Command]>([
    ['StartFlow(transfer_money)', { command: 'start flow', flow: 'transfer_money' }],
    ['StartFlow("transfer_money")', { command: 'start flow', flow: 'transfer_money' }],
    ['StartFlow( transfer_money )', { command: 'start flow', flow: 'transfer_money' }],
    ['SetSlot(amount, 50)', { command: 'set slot', name: 'amount', value: '50' }],
    [
      'SetSlot(city, "Paris, France")',
      { command: 'set slot', name: 'city', value: 'Paris, France' },
    ],
    [
      'SetSlot(address, 1 Main St, Springfield)',
      { command: 'set slot', name: 'address', value: '1 Main St, Springfield' },
    ],
    ['SetSlot(city)', { command: 'set slot', name: 'city', value: null }],
    ['SetSlot( city , Paris)', { command: 'set slot', name: 'city', value: 'Paris' }],
    ['CancelFlow()', { command: 'cancel flow' }],
    ['Clarify(a, "b")', { command: 'disambiguate flows', flows: ['a', 'b'] }],
    ['Clarify([a, b])', { command: 'disambiguate flows', flows: ['a', 'b'] }],
    ['Clarify( [a, b] )', { command: 'disambiguate flows', flows: ['a', 'b'] }],
    ['ChitChat()', { command: 'offtopic reply' }],
    ['KnowledgeAnswer()', { command: 'provide info' }],
    ['HumanHandoff()', { command: 'hand over' }],
    ['RepeatLastBotMessages()', { command: 'repeat message' }],
  ])('reads the older function form %j', (line, command) => {
    expect(parseCommandDsl(line)).toEqual([command]);
  });

  it('tolerates code fences, list markers, inline code and keyword case', () => {
    const output = [
      '```text',
      '- START FLOW book_trip',
      '* Set Slot destination Lisbon',
      '  1. `Cancel  Flow`',
      '2) disambiguate FLOWS a b',
      '```',
    ].join('\n');

    expect(parseCommandDsl(output)).toEqual([
      { command: 'start flow', flow: 'book_trip' },
      { command: 'set slot', name: 'destination', value: 'Lisbon' },
      { command: 'cancel flow' },
      { command: 'disambiguate flows', flows: ['a', 'b'] },
    ]);
  });

  it.each<[string, Command]>([
    ['start flow book_trip```  ', { command: 'start flow', flow: 'book_trip' }],
    ['`cancel flow` ```', { command: 'cancel flow' }],
    ['` start flow book_trip `', { command: 'start flow', flow: 'book_trip' }],
  ])('reads %j, a command sharing its line with a fence or padded inline code', (line, command) => {
    expect(parseCommandDsl(line)).toEqual([command]);
  });

  it.each<[string, Command]>([
    [
      'set slot note wrap it in ``` fences',
      { command: 'set slot', name: 'note', value: 'wrap it in ``` fences' },
    ],
    ['set slot note say `hi`', { command: 'set slot', name: 'note', value: 'say `hi' }],
    ['set slot mark "', { command: 'set slot', name: 'mark', value: null }],
    ['set slot note "hi\'', { command: 'set slot', name: 'note', value: 'hi' }],
  ])('reads the value of %j as Rasa does, without quotes or marks at its ends', (line, command) => {
    expect(parseCommandDsl(line)).toEqual([command]);
  });

  it('reads chatter after an inline-code set slot as its value, as Rasa does', () => {
    expect(parseCommandDsl('`set slot city` could come next')).toEqual([
      { command: 'set slot', name: 'city', value: 'could come next' },
    ]);
  });

  it('ignores chatter lines between commands', () => {
    const output = 'Sure! Here are the commands:\nstart flow check_balance\nHope that helps.';

    expect(parseCommandDsl(output)).toEqual([{ command: 'start flow', flow: 'check_balance' }]);
  });

  it('drops exact duplicates but keeps the first of each', () => {
    const output = 'set slot a 1\nstart flow x\nset slot a 1\nset slot a 2\nstart flow x';

    expect(parseCommandDsl(output)).toEqual([
      { command: 'set slot', name: 'a', value: '1' },
      { command: 'start flow', flow: 'x' },
      { command: 'set slot', name: 'a', value: '2' },
    ]);
  });

  it('answers cannot handle when non-blank output has no command', () => {
    expect(parseCommandDsl('I think the user wants to travel.')).toEqual(
      cannotHandle(/could not be parsed/),
    );
  });

  it.each(['', '   \n\t\n', '```\n```', '```text\n```'])(
    'returns no commands for blank output or an empty fence %j',
    (output) => {
      expect(parseCommandDsl(output)).toEqual([]);
    },
  );

  it('does not mistake Object.prototype names for commands', () => {
    expect(parseCommandDsl('constructor\ntoString()')).toEqual(cannotHandle(/could not be parsed/));
  });

  it.each([
    'StartFlow(a, b)',
    'StartFlow()',
    'StartFlow("two words")',
    'SetSlot(, 5)',
    'SetSlot("home town", Berlin)',
  ])('ignores the function form %j, whose flow or slot is missing or not one id', (line) => {
    expect(parseCommandDsl(line)).toEqual(cannotHandle(/could not be parsed/));
  });

  it('reads from malformed lines what Rasa reads, and ignores the rest instead of throwing', () => {
    const output = 'start flow\nSetSlot("unclosed, 1)\nClarify()\nstart flow a b';
    expect(parseCommandDsl(output)).toEqual([
      { command: 'set slot', name: 'unclosed', value: '1' },
      { command: 'start flow', flow: 'a' },
    ]);
    expect(parseCommandDsl('Clarify()')).toEqual(cannotHandle(/could not be parsed/));
  });
});

describe('parseDeterministicMessage', () => {
  const intents = new Map([['check_balance', 'show_balance']]);

  it('reads /SetSlots with quotes, commas inside quotes and empty values', () => {
    const commands = parseDeterministicMessage(
      '  /SetSlots(a=1, b=some text, c="x, y", d=, e=\'q\')  ',
      intents,
    );

    expect(commands).toEqual([
      { command: 'set slot', name: 'a', value: '1' },
      { command: 'set slot', name: 'b', value: 'some text' },
      { command: 'set slot', name: 'c', value: 'x, y' },
      { command: 'set slot', name: 'd', value: null },
      { command: 'set slot', name: 'e', value: 'q' },
    ]);
  });

  it('reads empty quoted values as null', () => {
    expect(parseDeterministicMessage('/SetSlots(a="", b=\'\')', intents)).toEqual([
      { command: 'set slot', name: 'a', value: null },
      { command: 'set slot', name: 'b', value: null },
    ]);
  });

  it('keeps apostrophes and equals signs inside unquoted values', () => {
    expect(parseDeterministicMessage("/SetSlots(note=it's a=b)", intents)).toEqual([
      { command: 'set slot', name: 'note', value: "it's a=b" },
    ]);
  });

  it.each([
    ['/SetSlots(a=1', /closing/],
    ['/SetSlots(a=1, b)', /name=value/],
    ['/SetSlots(=1)', /name=value/],
    ['/SetSlots(a="x, y)', /quote/],
    ['/StartFlow(a b)', /one flow id/],
    ['/StartFlow()', /one flow id/],
    ['/StartFlow(abc', /closing/],
  ])('answers cannot handle for malformed %j', (message, reason) => {
    expect(parseDeterministicMessage(message, intents)).toEqual(cannotHandle(reason));
  });

  it('quotes the trimmed argument it could not use', () => {
    expect(parseDeterministicMessage('/SetSlots(a=1,  b )', intents)).toEqual([
      {
        command: 'cannot handle',
        reason: '/SetSlots(...) needs name=value pairs, got "b"',
      },
    ]);
    expect(parseDeterministicMessage('/StartFlow( a b )', intents)).toEqual([
      { command: 'cannot handle', reason: '/StartFlow(...) needs one flow id, got "a b"' },
    ]);
  });

  it.each(['/StartFlow(transfer_money)', '/StartFlow( transfer_money )'])('reads %j', (message) => {
    expect(parseDeterministicMessage(message, intents)).toEqual([
      { command: 'start flow', flow: 'transfer_money' },
    ]);
  });

  it.each(['/check_balance', '/check_balance{"account": "savings"}', '/check_balance {}'])(
    'starts the flow an intent triggers for %j',
    (message) => {
      expect(parseDeterministicMessage(message, intents)).toEqual([
        { command: 'start flow', flow: 'show_balance' },
      ]);
    },
  );

  it('answers cannot handle for an unknown intent', () => {
    expect(parseDeterministicMessage('/greet', intents)).toEqual(
      cannotHandle(/^unknown intent.*greet/),
    );
  });

  it.each([
    'hello',
    'check_balance',
    '/',
    '/ check_balance',
    '/123',
    '/check_balance please',
    '/check_balance{"a": ',
    '/check_balance[1]',
  ])('leaves %j to the LLM', (message) => {
    expect(parseDeterministicMessage(message, intents)).toBeUndefined();
  });
});

describe('coerceSlotValue', () => {
  const slot = (
    definition: Partial<SlotDefinition> & Pick<SlotDefinition, 'type'>,
  ): SlotDefinition => definition;
  const ok = (value: unknown) => ({ ok: true, value });
  const notOk = (reason: RegExp) => ({ ok: false, reason: expect.stringMatching(reason) });

  it.each(['text', 'bool', 'float', 'categorical', 'list', 'any'] as const)(
    "treats Rasa's null words as null for %s slots",
    (type) => {
      for (const value of [null, undefined, '', 'null', 'None', ' undefined ', '[missing]']) {
        expect(coerceSlotValue(value, slot({ type, values: ['a'] }))).toEqual(ok(null));
      }
    },
  );

  it('reads null words in any letter case for bool and float slots', () => {
    for (const type of ['bool', 'float'] as const) {
      for (const value of ['UNDEFINED', '  none ', 'NULL']) {
        expect(coerceSlotValue(value, slot({ type }))).toEqual(ok(null));
      }
    }
  });

  it("keeps the word none in a text slot, as Rasa's continue pattern asks the model to answer none", () => {
    expect(coerceSlotValue('none', slot({ type: 'text' }))).toEqual(ok('none'));
  });

  it('keeps text and stringifies numbers and booleans', () => {
    const text = slot({ type: 'text' });

    expect(coerceSlotValue(' hi ', text)).toEqual(ok(' hi '));
    expect(coerceSlotValue(42, text)).toEqual(ok('42'));
    expect(coerceSlotValue(false, text)).toEqual(ok('false'));
    expect(coerceSlotValue({ a: 1 }, text)).toEqual(notOk(/text/));
  });

  it.each<[unknown, boolean]>([
    [true, true],
    ['TRUE', true],
    ['yes', true],
    ['Y', true],
    ['1', true],
    [' yes ', true],
    ['on', true],
    [1, true],
    [false, false],
    ['False', false],
    ['no', false],
    ['n', false],
    ['0', false],
    ['OFF', false],
  ])('reads %j as the boolean %j', (value, expected) => {
    expect(coerceSlotValue(value, slot({ type: 'bool' }))).toEqual(ok(expected));
  });

  it('rejects a word that is neither yes nor no for a bool slot', () => {
    expect(coerceSlotValue('maybe', slot({ type: 'bool' }))).toEqual(notOk(/yes or no.*maybe/));
  });

  it.each<[unknown, string]>([
    [5, 'Expected yes or no, got 5.'],
    [['yes'], 'Expected yes or no, got a list.'],
    [{ a: 1 }, 'Expected yes or no, got a value of type object.'],
  ])('rejects %j for a bool slot, saying what it got', (value, reason) => {
    expect(coerceSlotValue(value, slot({ type: 'bool' }))).toEqual({ ok: false, reason });
  });

  it.each<[unknown, number]>([
    [3.5, 3.5],
    ['42', 42],
    [' -7.25 ', -7.25],
    ['$1,200.50', 1200.5],
    ['€ 30', 30],
    ['£5', 5],
    ['-$5', -5],
    ['1,000,000', 1000000],
    ['.5', 0.5],
    ['1e3', 1000],
  ])('reads %j as the number %j', (value, expected) => {
    expect(coerceSlotValue(value, slot({ type: 'float' }))).toEqual(ok(expected));
  });

  it.each(['abc', '1,5', '12abc', '$', true, Number.NaN, Number.POSITIVE_INFINITY])(
    'rejects %j for a float slot',
    (value) => {
      expect(coerceSlotValue(value, slot({ type: 'float' }))).toEqual(notOk(/number/));
    },
  );

  it('says which value is not a number', () => {
    expect(coerceSlotValue(true, slot({ type: 'float' }))).toEqual({
      ok: false,
      reason: 'Expected a number, got true.',
    });
  });

  it('enforces min_value and max_value inclusively', () => {
    const amount = slot({ type: 'float', min_value: 1, max_value: 100 });

    expect(coerceSlotValue('1', amount)).toEqual(ok(1));
    expect(coerceSlotValue(100, amount)).toEqual(ok(100));
    expect(coerceSlotValue('0.5', amount)).toEqual({ ...notOk(/minimum of 1/), outOfRange: true });
    expect(coerceSlotValue('$100.01', amount)).toEqual({
      ...notOk(/maximum of 100/),
      outOfRange: true,
    });
    expect(coerceSlotValue('lots', amount)).toEqual(notOk(/Expected a number/));
  });

  it('returns the canonical categorical value', () => {
    const car = slot({ type: 'categorical', values: ['suv', 'Sedan', 36, true] });

    expect(coerceSlotValue('SUV', car)).toEqual(ok('suv'));
    expect(coerceSlotValue(' sedan ', car)).toEqual(ok('Sedan'));
    expect(coerceSlotValue('36', car)).toEqual(ok(36));
    expect(coerceSlotValue('True', car)).toEqual(ok(true));
  });

  it('lists the allowed values when a categorical value does not match', () => {
    const car = slot({ type: 'categorical', values: ['suv', 'sedan'] });

    expect(coerceSlotValue('truck', car)).toEqual(notOk(/suv, sedan.*truck/));
    expect(coerceSlotValue('x', slot({ type: 'categorical' }))).toEqual(notOk(/no allowed values/));
  });

  it.each<[unknown, unknown[]]>([
    [
      ['a', 1],
      ['a', 1],
    ],
    ['["a", 2]', ['a', 2]],
    ["['a', 'b, c']", ['a', 'b, c']],
    ['red, green , ,blue', ['red', 'green', 'blue']],
    ['solo', ['solo']],
    [7, [7]],
    [true, [true]],
    ["  ['a', 'b']  ", ['a', 'b']],
    ["['a[0]', 'b']", ['a[0]', 'b']],
    ['red, "green', ['red', '"green']],
  ])('reads %j as the list %j', (value, expected) => {
    expect(coerceSlotValue(value, slot({ type: 'list' }))).toEqual(ok(expected));
  });

  it('rejects an object for a list slot', () => {
    expect(coerceSlotValue({ a: 1 }, slot({ type: 'list' }))).toEqual({
      ok: false,
      reason: 'Expected a list.',
    });
  });

  it('keeps any value as it is', () => {
    const value = { nested: [1] };

    expect(coerceSlotValue(value, slot({ type: 'any' }))).toEqual(ok(value));
  });
});
