import * as z from 'zod';
import type { SlotDefinition } from '../../assistant/index.js';
import { parseJsonText, splitOnCommas, unquote } from './quoting.js';

/**
 * The outcome of fitting a value to a slot: the typed value, or why it does not fit. `outOfRange`:
 * the value is of the slot's type, but outside a float slot's `min_value` and `max_value`.
 */
export type CoercionResult =
  | { ok: true; value: unknown }
  | { ok: false; reason: string; outOfRange?: true };

/**
 * The words that mean "no value", as Rasa reads a model's slot value: exactly these, so that a
 * text slot can hold the word "none" (Rasa's pattern asks the model to answer "none").
 */
const NULL_WORDS = new Set(['', 'null', 'None', 'undefined', '[missing]', '[missing information]']);
const TRUE_WORDS = new Set(['true', 'yes', 'y', '1', 'on']);
const FALSE_WORDS = new Set(['false', 'no', 'n', '0', 'off']);
// Thousands commas are only removed when grouped in threes, so "1,5" is not misread as 15.
const NUMBER = /^([+-]?)\s*[$€£¥₹]?\s*(\d{1,3}(?:,\d{3})+(?:\.\d*)?|\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
const JsonArray = z.array(z.unknown());

/**
 * Whether a string means "no value" for the slot: Rasa's words exactly; for a bool or a number,
 * in any letter case too, since neither could hold such a word.
 */
function isNullWord(value: string, slot: SlotDefinition): boolean {
  const word = value.trim();
  if (NULL_WORDS.has(word)) return true;
  return (
    (slot.type === 'bool' || slot.type === 'float') && LENIENT_NULL_WORDS.has(word.toLowerCase())
  );
}

const LENIENT_NULL_WORDS = new Set(['null', 'none', 'undefined']);

/** Fits a value (usually an LLM's string) to a slot's type; null-like words become null. */
export function coerceSlotValue(value: unknown, slot: SlotDefinition): CoercionResult {
  if (value === null || value === undefined) return ok(null);
  if (typeof value === 'string' && isNullWord(value, slot)) return ok(null);
  switch (slot.type) {
    case 'text':
      return toText(value);
    case 'bool':
      return toBool(value);
    case 'float':
      return toFloat(value, slot);
    case 'categorical':
      return toCategory(value, slot.values ?? []);
    case 'list':
      return toList(value);
    case 'any':
      return ok(value);
    default: {
      const unknownType: never = slot.type;
      return fail(`Slot type "${String(unknownType)}" is not supported.`);
    }
  }
}

function toText(value: unknown): CoercionResult {
  if (typeof value === 'string') return ok(value);
  if (typeof value === 'number' || typeof value === 'boolean') return ok(String(value));
  return fail('Expected text.');
}

function toBool(value: unknown): CoercionResult {
  if (typeof value === 'boolean') return ok(value);
  if (typeof value === 'string' || typeof value === 'number') {
    const word = String(value).trim().toLowerCase();
    if (TRUE_WORDS.has(word)) return ok(true);
    if (FALSE_WORDS.has(word)) return ok(false);
  }
  return fail(`Expected yes or no, got ${describe(value)}.`);
}

function toFloat(value: unknown, slot: SlotDefinition): CoercionResult {
  const number = typeof value === 'string' ? parseNumber(value) : value;
  if (typeof number !== 'number' || !Number.isFinite(number)) {
    return fail(`Expected a number, got ${describe(value)}.`);
  }
  if (slot.min_value !== undefined && number < slot.min_value) {
    return { ...fail(`${number} is below the minimum of ${slot.min_value}.`), outOfRange: true };
  }
  if (slot.max_value !== undefined && number > slot.max_value) {
    return { ...fail(`${number} is above the maximum of ${slot.max_value}.`), outOfRange: true };
  }
  return ok(number);
}

function parseNumber(text: string): number | undefined {
  const match = NUMBER.exec(text.trim());
  if (match === null) return undefined;
  const [, sign = '', digits = '', exponent = ''] = match;
  return Number(`${sign}${digits.replaceAll(',', '')}${exponent}`);
}

function toCategory(
  value: unknown,
  allowed: ReadonlyArray<string | number | boolean>,
): CoercionResult {
  if (allowed.length === 0) return fail('The slot lists no allowed values.');
  const wanted = String(value).trim().toLowerCase();
  const match = allowed.find((candidate) => String(candidate).toLowerCase() === wanted);
  if (match !== undefined) return ok(match);
  return fail(`Expected one of ${allowed.map(String).join(', ')}, got ${describe(value)}.`);
}

function toList(value: unknown): CoercionResult {
  if (Array.isArray(value)) return ok(value);
  if (typeof value === 'number' || typeof value === 'boolean') return ok([value]);
  if (typeof value !== 'string') return fail('Expected a list.');
  const text = value.trim();
  const json = JsonArray.safeParse(parseJsonText(text));
  if (json.success) return ok(json.data);
  // LLMs often write Python-style lists such as ['a', 'b']; read those as comma lists too.
  const body = text.replace(/^\[|\]$/g, '');
  const parts = splitOnCommas(body) ?? body.split(',');
  return ok(parts.map((part) => unquote(part.trim())).filter((part) => part !== ''));
}

function describe(value: unknown): string {
  if (typeof value === 'string') return `"${value}"`;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return Array.isArray(value) ? 'a list' : `a value of type ${typeof value}`;
}

function ok(value: unknown): CoercionResult {
  return { ok: true, value };
}

function fail(reason: string): { ok: false; reason: string } {
  return { ok: false, reason };
}
