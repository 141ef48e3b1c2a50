import { describe, expect, it } from 'vitest';
import {
  ConditionSyntaxError,
  conditionHolds,
  parseCondition,
} from '../../../src/assistant/index.js';

const holds = (text: string, slots: Record<string, unknown>) => conditionHolds(text, { slots });

describe('string literals in conditions', () => {
  it('keep their backslashes, so a regular expression with \\d matches digits as in Rasa', () => {
    expect(holds(String.raw`slots.pin matches "^\d{4}$"`, { pin: '4532' })).toBe(true);
    expect(holds(String.raw`slots.pin matches '^\d{4}$'`, { pin: 'dddd' })).toBe(false);
  });

  it('read the text between the quotes as written', () => {
    expect(parseCondition(String.raw`slots.path == "C:\temp\n"`)).toMatchObject({
      right: { type: 'literal', value: String.raw`C:\temp\n` },
    });
    expect(holds(`slots.name == "O'Brien"`, { name: "O'Brien" })).toBe(true);
    expect(holds(`slots.quote == 'say "hi"'`, { quote: 'say "hi"' })).toBe(true);
  });

  it('end at the next quote of their kind, as a backslash escapes nothing', () => {
    expect(parseCondition(String.raw`slots.a == "x\" or slots.b`)).toMatchObject({
      type: 'or',
      left: { right: { value: 'x\\' } },
    });
    expect(() => parseCondition(String.raw`slots.a == "x\"y"`)).toThrow(ConditionSyntaxError);
  });
});
