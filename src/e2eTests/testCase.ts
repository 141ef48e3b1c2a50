import type * as z from 'zod';
import type { BotMessage } from '../dialogue/index.js';
import type { ASSERTION_SCHEMAS, AssertionType } from './schema.js';

/** Where something is written: an absolute file and a 1-based line and column. */
export interface Where {
  readonly file: string;
  readonly line: number;
  readonly col: number;
}

/** One assertion of a user step, with the value its type takes. */
export type Assertion = {
  [K in AssertionType]: {
    readonly type: K;
    readonly spec: z.infer<(typeof ASSERTION_SCHEMAS)[K]>;
    readonly where: Where;
  };
}[AssertionType];

/** A slot a `slot_was_set` / `slot_was_not_set` step names, with a value when it gives one. */
export interface SlotExpectation {
  readonly name: string;
  readonly value?: unknown;
  readonly hasValue: boolean;
}

export type Step =
  | {
      readonly kind: 'user';
      readonly text: string;
      readonly metadata?: string;
      readonly assertions: readonly Assertion[];
      readonly assertionOrder: boolean;
      readonly where: Where;
    }
  | { readonly kind: 'bot'; readonly text: string; readonly where: Where }
  | { readonly kind: 'utter'; readonly name: string; readonly where: Where }
  | { readonly kind: 'slot_was_set'; readonly slot: SlotExpectation; readonly where: Where }
  | { readonly kind: 'slot_was_not_set'; readonly slot: SlotExpectation; readonly where: Where };

export type UserStep = Extract<Step, { kind: 'user' }>;

export interface TestCase {
  readonly name: string;
  readonly where: Where;
  readonly steps: readonly Step[];
  readonly fixtures: readonly string[];
  readonly metadata?: string;
}

/** What a stubbed custom action does instead of running. */
export interface ActionStub {
  readonly slots: Readonly<Record<string, unknown>>;
  readonly messages: readonly BotMessage[];
}

/** A named fixture (its slots) or metadata (its values), and where it is defined. */
export interface Definition {
  readonly value: Readonly<Record<string, unknown>>;
  readonly where: Where;
}

/** Named definitions by the file that holds them, then by name. */
export type Definitions = ReadonlyMap<string, ReadonlyMap<string, Definition>>;

/**
 * The definition a test case means by a name: the one of its own file, else the first file's
 * that has one. Rasa shares definitions across the files of a run, and projects often repeat
 * the same fixture in each file.
 */
export function definitionFor(
  definitions: Definitions,
  testCase: TestCase,
  name: string,
): Definition | undefined {
  const own = definitions.get(testCase.where.file)?.get(name);
  if (own) return own;
  for (const byName of definitions.values()) {
    const found = byName.get(name);
    if (found) return found;
  }
  return undefined;
}

/** Every name defined in any file. */
export function definedNames(definitions: Definitions): string[] {
  return [...new Set([...definitions.values()].flatMap((byName) => [...byName.keys()]))];
}

/** Every test file found, merged. */
export interface TestSuite {
  readonly files: readonly string[];
  readonly cases: readonly TestCase[];
  readonly fixtures: Definitions;
  readonly metadata: Definitions;
  /** By action name, or `test case name::action name` for one test case. */
  readonly stubs: ReadonlyMap<string, ActionStub>;
}

/** Whether a test case checks assertions (then its bot, utter and slot steps are not checked). */
export function usesAssertions(testCase: TestCase): boolean {
  return testCase.steps.some((s) => s.kind === 'user' && s.assertions.length > 0);
}

/** How a step reads in a report: `user: "hi"`, `utter: utter_greet`, … */
export function describeStep(step: Step): string {
  switch (step.kind) {
    case 'user':
      return `user: ${JSON.stringify(step.text)}`;
    case 'bot':
      return `bot: ${JSON.stringify(step.text)}`;
    case 'utter':
      return `utter: ${step.name}`;
    case 'slot_was_set':
    case 'slot_was_not_set':
      return `${step.kind}: ${step.slot.name}${step.slot.hasValue ? ` = ${JSON.stringify(step.slot.value)}` : ''}`;
    default:
      return assertNever(step);
  }
}

export function assertNever(value: never): never {
  throw new Error(`unexpected ${JSON.stringify(value)}`);
}
