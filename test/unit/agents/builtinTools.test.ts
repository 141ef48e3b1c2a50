import { describe, expect, it } from 'vitest';
import { pythonList } from '../../../src/agents/builtinTools.js';
import {
  defaultClosingInstruction,
  defaultTaskCompletedTool,
  exitSlots,
  setSlotTool,
} from '../../../src/agents/index.js';

describe('defaultTaskCompletedTool', () => {
  it('offers the model a strict task_completed tool without parameters that asks for a closing line', () => {
    expect(defaultTaskCompletedTool()).toEqual({
      type: 'function',
      function: {
        name: 'task_completed',
        description:
          'Call this once, and only once, when your whole task is done. It takes no arguments. ' +
          'Write your closing message to the user in the same response as this call: a short, ' +
          "natural reply to the user's latest message (acknowledge it, wish them well). Do not " +
          'recap the conversation or what you did, and do not explain your reasoning. A response ' +
          'that holds this call and no text is not valid.',
        parameters: { type: 'object', properties: {}, additionalProperties: false },
        strict: true,
      },
    });
  });
});

describe('defaultClosingInstruction', () => {
  it('tells the model, as a system message, to write only a closing line', () => {
    expect(defaultClosingInstruction()).toEqual({
      role: 'system',
      content:
        'Your task is complete. Do not call any tool. Write only a short, natural closing line ' +
        "that answers the user's latest message.",
    });
  });
});

describe('exitSlots', () => {
  it('lists the slots the exit conditions read once each, in order of mention', () => {
    expect(
      exitSlots([
        'slots.dealer_name is not null and slots.appointment_time is not null',
        'slots.appointment_time != "never" or slots.color is not null',
      ]),
    ).toEqual(['dealer_name', 'appointment_time', 'color']);
  });

  it('skips a condition that does not parse and keeps the slots of the others', () => {
    expect(exitSlots(['slots.color is (', 'slots.dealer_name is not null'])).toEqual([
      'dealer_name',
    ]);
  });
});

describe('pythonList', () => {
  it("writes values as Python's repr does: quoted strings, None, True, False and numbers", () => {
    expect(pythonList(["it's", 'plain', null, undefined, true, false, 3, 2.5])).toBe(
      "['it\\'s', 'plain', None, None, True, False, 3, 2.5]",
    );
  });
});

describe('setSlotTool', () => {
  it('offers a strict set_slot tool that takes the value as a string', () => {
    expect(setSlotTool('dealer_name', { type: 'text' })).toEqual({
      type: 'function',
      function: {
        name: 'set_slot_dealer_name',
        description: "Store a value in the slot 'dealer_name' (slot type: text).",
        parameters: {
          type: 'object',
          properties: {
            slot_value: { type: 'string', description: 'The value to store in the slot.' },
          },
          required: ['slot_value'],
          additionalProperties: false,
        },
        strict: true,
      },
    });
  });

  it('lists the allowed values of a categorical slot in its description', () => {
    expect(
      setSlotTool('color', { type: 'categorical', values: ['red', 'dark blue', true, 7] }).function
        .description,
    ).toBe(
      "Store a value in the slot 'color' (slot type: categorical). Allowed values: ['red', 'dark blue', True, 7].",
    );
  });

  it('lists allowed values only for a categorical slot that has them', () => {
    expect(setSlotTool('mood', { type: 'categorical' }).function.description).toBe(
      "Store a value in the slot 'mood' (slot type: categorical).",
    );
    expect(setSlotTool('city', { type: 'text', values: ['Berlin'] }).function.description).toBe(
      "Store a value in the slot 'city' (slot type: text).",
    );
  });

  it('names the type any for a slot the domain does not define', () => {
    expect(setSlotTool('notes', undefined).function.description).toBe(
      "Store a value in the slot 'notes' (slot type: any).",
    );
  });
});
