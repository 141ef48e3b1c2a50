import { type AssertionContext, checkAssertion } from './assertions.js';
import type { CheckResult } from './checkResult.js';
import type { RunningCase } from './runningCase.js';
import { checkStep } from './stepChecks.js';
import {
  type Assertion,
  definitionFor,
  describeStep,
  type Step,
  type TestCase,
  type TestSuite,
  usesAssertions,
  type Where,
} from './testCase.js';
import type { TurnEvent } from './turnEvents.js';

/** The assistant under test, one conversation per sender id. */
export interface ConversationTarget {
  /** Sets slots before the conversation's first message; returns the events this wrote. */
  setSlots(sender: string, slots: Readonly<Record<string, unknown>>): Promise<TurnEvent[]>;
  /** Sends a user message as the channel would and returns the events of its turn. */
  send(
    sender: string,
    text: string,
    metadata: Readonly<Record<string, unknown>> | undefined,
  ): Promise<TurnEvent[]>;
}

/** Why a test case failed: the step (or assertion) and what was expected and what happened. */
export interface CaseFailure {
  readonly step: string;
  readonly where: Where;
  readonly expected: string;
  readonly actual: string;
}

export interface CaseResult {
  readonly testCase: TestCase;
  readonly status: 'passed' | 'failed';
  readonly failure?: CaseFailure;
  /** Assertions that could not be checked (generative ones without a real model), with why. */
  readonly notChecked: readonly { assertion: string; where: Where; reason: string }[];
  readonly seconds: number;
}

export interface RunOptions {
  readonly target: ConversationTarget;
  /** Set to the running test case and message, for stubs and scripted commands. */
  readonly running: RunningCase;
  readonly context: Omit<AssertionContext, 'userText'>;
  /** Stop after the first failing test case. */
  readonly failFast?: boolean;
  readonly newSender: () => string;
  readonly now: () => number;
  /** Called as each test case finishes. */
  readonly onResult?: (result: CaseResult) => void;
}

/** Runs every test case of the suite, each as a fresh conversation, one after the other. */
export async function runSuite(suite: TestSuite, options: RunOptions): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  for (const testCase of suite.cases) {
    const result = await runCase(suite, testCase, options);
    results.push(result);
    options.onResult?.(result);
    if (options.failFast && result.status === 'failed') break;
  }
  return results;
}

async function runCase(
  suite: TestSuite,
  testCase: TestCase,
  options: RunOptions,
): Promise<CaseResult> {
  const started = options.now();
  const notChecked: { assertion: string; where: Where; reason: string }[] = [];
  const done = (failure?: CaseFailure): CaseResult => ({
    testCase,
    status: failure ? 'failed' : 'passed',
    ...(failure ? { failure } : {}),
    notChecked,
    seconds: (options.now() - started) / 1000,
  });
  options.running.name = testCase.name;
  options.running.message = undefined;
  const sender = options.newSender();
  const assertions = usesAssertions(testCase);
  try {
    let events: TurnEvent[] = [];
    if (testCase.fixtures.length > 0) {
      const slots = Object.assign(
        {},
        ...testCase.fixtures.map(
          (name) => definitionFor(suite.fixtures, testCase, name)?.value ?? {},
        ),
      );
      try {
        events = await options.target.setSlots(sender, slots);
      } catch (error) {
        return done({
          step: `fixtures: ${testCase.fixtures.join(', ')}`,
          where: testCase.where,
          expected: 'the fixtures set their slots',
          actual: messageOf(error),
        });
      }
    }
    for (const step of testCase.steps) {
      if (step.kind === 'user') {
        options.running.message = step.text;
        events = await options.target.send(sender, step.text, metadataFor(suite, testCase, step));
        if (!assertions) continue;
        const failure = await checkAssertions(step, events, options, notChecked);
        if (failure) return done(failure);
        continue;
      }
      // A test case with assertions checks only them, as in Rasa.
      if (assertions) continue;
      const result = checkStep(step, events);
      if (result.status === 'failed')
        return done(failureOf(describeStep(step), step.where, result));
    }
    return done();
  } catch (error) {
    return done({
      step:
        options.running.message !== undefined
          ? `user: ${JSON.stringify(options.running.message)}`
          : 'start',
      where: testCase.where,
      expected: 'the turn to run',
      actual: messageOf(error),
    });
  } finally {
    options.running.name = undefined;
    options.running.message = undefined;
  }
}

async function checkAssertions(
  step: Extract<Step, { kind: 'user' }>,
  turn: readonly TurnEvent[],
  options: RunOptions,
  notChecked: { assertion: string; where: Where; reason: string }[],
): Promise<CaseFailure | undefined> {
  let events = turn;
  const context = { ...options.context, userText: step.text };
  for (const assertion of step.assertions) {
    const result = await checkAssertion(assertion, events, context);
    if (result.status === 'not_checked') {
      notChecked.push({ assertion: assertion.type, where: assertion.where, reason: result.reason });
      continue;
    }
    if (result.status === 'failed') {
      const order = step.assertionOrder
        ? " (assertion_order_enabled: checked after the previous assertion's event)"
        : '';
      return failureOf(
        `${describeStep(step)} › ${describeAssertion(assertion)}${order}`,
        assertion.where,
        result,
      );
    }
    // With assertion order, the next assertion looks only after the event this one matched.
    if (step.assertionOrder && result.matched !== undefined) {
      events = events.slice(result.matched + 1);
    }
  }
  return undefined;
}

function describeAssertion(assertion: Assertion): string {
  const spec = typeof assertion.spec === 'string' ? assertion.spec : JSON.stringify(assertion.spec);
  return `${assertion.type}: ${spec}`;
}

function failureOf(
  step: string,
  where: Where,
  result: Extract<CheckResult, { status: 'failed' }>,
): CaseFailure {
  return { step, where, expected: result.expected, actual: result.actual };
}

/** The test case's metadata, overridden key by key by the step's, as Rasa merges them. */
function metadataFor(
  suite: TestSuite,
  testCase: TestCase,
  step: Extract<Step, { kind: 'user' }>,
): Readonly<Record<string, unknown>> | undefined {
  const lookup = (name: string | undefined) =>
    name !== undefined ? definitionFor(suite.metadata, testCase, name)?.value : undefined;
  const base = lookup(testCase.metadata);
  const own = lookup(step.metadata);
  return base || own ? { ...base, ...own } : undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
