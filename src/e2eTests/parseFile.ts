import type * as z from 'zod';
import {
  type Diagnostic,
  didYouMean,
  type KeyPath,
  type YamlSource,
  zodDiagnostics,
} from '../config/index.js';
import {
  ASSERTION_SCHEMAS,
  ASSERTION_TYPES,
  type AssertionType,
  BotStep,
  SlotEntries,
  TestCaseShape,
  TestFile,
  UserStep,
  UtterStep,
} from './schema.js';
import { parseStub } from './stubs.js';
import type {
  ActionStub,
  Assertion,
  Definition,
  SlotExpectation,
  Step,
  TestCase,
  Where,
} from './testCase.js';

/** What one test file holds; references between files are checked once all are read. */
export interface ParsedTestFile {
  readonly cases: TestCase[];
  readonly fixtures: Map<string, Definition>;
  readonly metadata: Map<string, Definition>;
  readonly stubs: Map<string, ActionStub>;
}

const STEP_KEYS = ['user', 'bot', 'utter', 'slot_was_set', 'slot_was_not_set'] as const;

/** Reads an e2e test file (already parsed as YAML); every problem becomes a located diagnostic. */
export function parseTestFile(source: YamlSource, errors: Diagnostic[]): ParsedTestFile {
  const parsed: ParsedTestFile = {
    cases: [],
    fixtures: new Map(),
    metadata: new Map(),
    stubs: new Map(),
  };
  const file = check(TestFile, source.data, source, [], errors);
  if (!file) return parsed;
  const define = (
    kind: 'fixtures' | 'metadata',
    i: number,
    name: string,
    value: Record<string, unknown>,
  ) => {
    const where = at(source, [kind, i, name], 'key');
    const twin = parsed[kind].get(name);
    if (twin) {
      errors.push({
        ...where,
        message: `${kind === 'fixtures' ? 'fixture' : 'metadata'} "${name}" is defined twice in this file (first at line ${twin.where.line})`,
      });
      return;
    }
    parsed[kind].set(name, { value, where });
  };
  file.fixtures?.forEach((entry, i) => {
    for (const [name, slots] of Object.entries(entry))
      define('fixtures', i, name, Object.assign({}, ...slots));
  });
  file.metadata?.forEach((entry, i) => {
    for (const [name, values] of Object.entries(entry)) define('metadata', i, name, values);
  });
  for (const [name, value] of Object.entries(file.stub_custom_actions ?? {})) {
    const stub = parseStub(source, value, ['stub_custom_actions', name], errors);
    if (stub) parsed.stubs.set(name, stub);
  }
  file.test_cases.forEach((raw, i) => {
    const testCase = parseTestCase(source, raw, ['test_cases', i], errors);
    if (testCase) parsed.cases.push(testCase);
  });
  return parsed;
}

function parseTestCase(
  source: YamlSource,
  raw: unknown,
  path: KeyPath,
  errors: Diagnostic[],
): TestCase | undefined {
  const shape = check(TestCaseShape, raw, source, path, errors);
  if (!shape) return undefined;
  const steps: Step[] = [];
  shape.steps.forEach((step, i) => {
    steps.push(...parseStep(source, step, [...path, 'steps', i], errors));
  });
  return {
    name: shape.test_case,
    where: at(source, [...path, 'test_case']),
    steps,
    fixtures: shape.fixtures ?? [],
    ...(shape.metadata !== undefined ? { metadata: shape.metadata } : {}),
  };
}

function parseStep(source: YamlSource, raw: unknown, path: KeyPath, errors: Diagnostic[]): Step[] {
  const where = at(source, path);
  const keys =
    raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? Object.keys(raw) : [];
  const kind = STEP_KEYS.find((k) => keys.includes(k));
  if (kind === undefined) {
    const hint = keys[0] === undefined ? '' : didYouMean(keys[0], [...STEP_KEYS]);
    errors.push(source.diagnostic(path, `a step must be one of: ${STEP_KEYS.join(', ')}${hint}`));
    return [];
  }
  switch (kind) {
    case 'user': {
      const step = check(UserStep, raw, source, path, errors);
      if (!step) return [];
      const assertions = (step.assertions ?? []).flatMap((a, i) => {
        const parsed = parseAssertion(source, a, [...path, 'assertions', i], errors);
        return parsed ? [parsed] : [];
      });
      return [
        {
          kind,
          text: step.user.trim(),
          ...(step.metadata !== undefined ? { metadata: step.metadata } : {}),
          assertions,
          assertionOrder: step.assertion_order_enabled ?? false,
          where,
        },
      ];
    }
    case 'bot': {
      const step = check(BotStep, raw, source, path, errors);
      return step ? [{ kind, text: step.bot.trim(), where }] : [];
    }
    case 'utter': {
      const step = check(UtterStep, raw, source, path, errors);
      return step ? [{ kind, name: step.utter.trim(), where }] : [];
    }
    case 'slot_was_set':
    case 'slot_was_not_set': {
      if (keys.length > 1) {
        const extra = keys.find((k) => k !== kind) ?? '';
        errors.push(
          source.diagnostic([...path, extra], `unknown key "${extra}" in a ${kind} step`, 'key'),
        );
        return [];
      }
      const value = (raw as Record<string, unknown>)[kind];
      const entries = check(SlotEntries, value, source, [...path, kind], errors);
      if (!entries) return [];
      return entries.flatMap((entry, i) => {
        const slot = slotEntry(source, entry, [...path, kind, i], errors);
        return slot ? [{ kind, slot, where: at(source, [...path, kind, i]) }] : [];
      });
    }
    default:
      return [];
  }
}

function slotEntry(
  source: YamlSource,
  entry: string | Record<string, unknown>,
  path: KeyPath,
  errors: Diagnostic[],
): SlotExpectation | undefined {
  if (typeof entry === 'string') return { name: entry.trim(), hasValue: false };
  const pairs = Object.entries(entry);
  const [first] = pairs;
  if (pairs.length !== 1 || first === undefined) {
    errors.push(source.diagnostic(path, 'a slot entry is a slot name or one "slot: value" pair'));
    return undefined;
  }
  return { name: first[0], value: first[1], hasValue: true };
}

function parseAssertion(
  source: YamlSource,
  raw: unknown,
  path: KeyPath,
  errors: Diagnostic[],
): Assertion | undefined {
  const keys =
    raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? Object.keys(raw) : [];
  const [type] = keys;
  if (keys.length !== 1 || type === undefined) {
    errors.push(
      source.diagnostic(
        path,
        `an assertion is a mapping with one key: ${ASSERTION_TYPES.join(', ')}`,
      ),
    );
    return undefined;
  }
  if (!(ASSERTION_TYPES as string[]).includes(type)) {
    errors.push(
      source.diagnostic(
        [...path, type],
        `unknown assertion "${type}"${didYouMean(type, ASSERTION_TYPES)}; known: ${ASSERTION_TYPES.join(', ')}`,
        'key',
      ),
    );
    return undefined;
  }
  const known = type as AssertionType;
  const valuePath = [...path, known];
  const spec = check(
    ASSERTION_SCHEMAS[known],
    (raw as Record<string, unknown>)[known],
    source,
    valuePath,
    errors,
  );
  if (spec === undefined) return undefined;
  const where = at(source, valuePath, 'key');
  if ((known === 'bot_uttered' || known === 'bot_did_not_utter') && typeof spec === 'object') {
    const pattern = (spec as { text_matches?: string }).text_matches;
    if (pattern !== undefined && !isRegExp(pattern)) {
      errors.push(
        source.diagnostic(
          [...valuePath, 'text_matches'],
          `text_matches ${JSON.stringify(pattern)} is not a valid regular expression`,
        ),
      );
      return undefined;
    }
  }
  return { type: known, spec, where } as Assertion;
}

function isRegExp(pattern: string): boolean {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
}

/** Parses with a schema; on failure records located diagnostics and returns undefined. */
function check<T extends z.ZodType>(
  schema: T,
  value: unknown,
  source: YamlSource,
  path: KeyPath,
  errors: Diagnostic[],
): z.infer<T> | undefined {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  errors.push(...zodDiagnostics(result.error, source, value, path));
  return undefined;
}

function at(source: YamlSource, path: KeyPath, anchor: 'key' | 'value' = 'value'): Where {
  return { file: source.file, ...source.position(path, anchor) };
}
