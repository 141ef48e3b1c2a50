import type { ComparisonOperator, Condition } from './ast.js';
import { parseCondition } from './parse.js';

/** What a condition reads: slot values (`slots.x`) and the flow's context (`context.collect.x`). */
export interface ConditionScope {
  readonly slots: Readonly<Record<string, unknown>>;
  readonly context?: Readonly<Record<string, unknown>>;
}

/** Whether a parsed condition holds; a bare value counts by its truthiness (`slots.confirmed`). */
export function evaluateCondition(condition: Condition, scope: ConditionScope): boolean {
  return truthy(evaluateOperand(condition, scope));
}

/** The value of a node: a slot or context value (null when absent), a literal, a list or a boolean. */
export function evaluateOperand(condition: Condition, scope: ConditionScope): unknown {
  switch (condition.type) {
    case 'literal':
      return condition.value;
    case 'slot':
      return lookup(scope.slots, [condition.name]);
    case 'context':
      return lookup(scope.context, condition.path);
    case 'list':
      return condition.items.map((item) => evaluateOperand(item, scope));
    case 'not':
      return !evaluateCondition(condition.operand, scope);
    case 'and':
      return evaluateCondition(condition.left, scope) && evaluateCondition(condition.right, scope);
    case 'or':
      return evaluateCondition(condition.left, scope) || evaluateCondition(condition.right, scope);
    case 'compare':
      return compare(
        condition.op,
        evaluateOperand(condition.left, scope),
        evaluateOperand(condition.right, scope),
      );
    default:
      return assertNever(condition);
  }
}

const CACHE_LIMIT = 1000;
const parsed = new Map<string, Condition>();

/** Parses (once per text) and evaluates a condition. Throws ConditionSyntaxError if it does not parse. */
export function conditionHolds(text: string, scope: ConditionScope): boolean {
  let condition = parsed.get(text);
  if (condition === undefined) {
    condition = parseCondition(text);
    // Conditions come from config, so few texts recur; the bound only caps texts built at runtime.
    const oldest = parsed.keys().next();
    if (parsed.size >= CACHE_LIMIT && oldest.done !== true) parsed.delete(oldest.value);
    parsed.set(text, condition);
  }
  return evaluateCondition(condition, scope);
}

function lookup(root: unknown, path: readonly string[]): unknown {
  let current = root;
  for (const key of path) {
    // Own properties only, so `slots.constructor` is an absent slot rather than Object.
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, key)) {
      return null;
    }
    current = Reflect.get(current, key);
  }
  return current ?? null;
}

function truthy(value: unknown): boolean {
  if (typeof value === 'string' || Array.isArray(value)) return value.length > 0;
  if (typeof value === 'number') return value !== 0;
  return value !== null && value !== undefined && value !== false;
}

function compare(op: ComparisonOperator, left: unknown, right: unknown): boolean {
  switch (op) {
    case '==':
    case 'is':
      return looseEquals(left, right);
    case '!=':
    case 'is not':
      return !looseEquals(left, right);
    // NaN for values that do not order makes every ordering comparison false.
    case '<':
      return (ordering(left, right) ?? Number.NaN) < 0;
    case '<=':
      return (ordering(left, right) ?? Number.NaN) <= 0;
    case '>':
      return (ordering(left, right) ?? Number.NaN) > 0;
    case '>=':
      return (ordering(left, right) ?? Number.NaN) >= 0;
    case 'in':
      return isIn(left, right);
    case 'not in':
      return !isIn(left, right);
    case 'contains':
      return isIn(right, left);
    case 'matches':
      return matches(left, right);
    default:
      return assertNever(op);
  }
}

/** Slots filled from text hold strings, so `"5" == 5` and `"True" is true` must hold. */
function looseEquals(left: unknown, right: unknown): boolean {
  if (left === null || right === null) return left === right;
  if (typeof left === 'number' && typeof right === 'string') return left === numeric(right);
  if (typeof left === 'string' && typeof right === 'number') return numeric(left) === right;
  if (typeof left === 'boolean' && typeof right === 'string') return left === boolean(right);
  if (typeof left === 'string' && typeof right === 'boolean') return boolean(left) === right;
  return deepEquals(left, right);
}

/** Structures compare exactly: coercion is for a scalar slot against a literal. */
function deepEquals(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (Array.isArray(left) || Array.isArray(right)) {
    return (
      Array.isArray(left) &&
      Array.isArray(right) &&
      left.length === right.length &&
      left.every((item, index) => deepEquals(item, right[index]))
    );
  }
  if (left === null || right === null || typeof left !== 'object' || typeof right !== 'object') {
    return false;
  }
  const keys = Object.keys(left);
  return (
    keys.length === Object.keys(right).length &&
    keys.every(
      (key) =>
        Object.hasOwn(right, key) && deepEquals(Reflect.get(left, key), Reflect.get(right, key)),
    )
  );
}

/** Negative, zero or positive; undefined when the values do not order (null, booleans, mixed). */
function ordering(left: unknown, right: unknown): number | undefined {
  const a = finiteNumber(left);
  const b = finiteNumber(right);
  if (a !== undefined && b !== undefined) return Math.sign(a - b);
  if (typeof left === 'string' && typeof right === 'string') {
    return left < right ? -1 : left > right ? 1 : 0;
  }
  return undefined;
}

function isIn(item: unknown, collection: unknown): boolean {
  if (Array.isArray(collection)) return collection.some((member) => looseEquals(item, member));
  return typeof collection === 'string' && typeof item === 'string' && collection.includes(item);
}

function matches(text: unknown, pattern: unknown): boolean {
  if (typeof text !== 'string' || typeof pattern !== 'string') return false;
  try {
    return new RegExp(pattern).test(text);
  } catch (error) {
    if (error instanceof SyntaxError) return false;
    throw error;
  }
}

// Decimal only: `Number()` would also read "0x10" and "0b1", which no user means as a number.
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

function numeric(text: string): number | undefined {
  const trimmed = text.trim();
  if (!DECIMAL.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : undefined;
}

function finiteNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  return typeof value === 'string' ? numeric(value) : undefined;
}

function boolean(text: string): boolean | undefined {
  const lower = text.toLowerCase();
  return lower === 'true' ? true : lower === 'false' ? false : undefined;
}

function assertNever(value: never): never {
  throw new Error(`unexpected condition node ${JSON.stringify(value)}`);
}
