import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type CaseResult,
  type ConversationTarget,
  loadSuite,
  type RunningCase,
  runSuite,
  type TurnEvent,
} from '../../../src/e2eTests/index.js';
import { writeProject } from '../../helpers/project.js';

/** An assistant in memory: each message's turn is scripted; it records what it was sent. */
class ScriptedTarget implements ConversationTarget {
  readonly sent: {
    sender: string;
    text: string;
    metadata: unknown;
    running: string | undefined;
  }[] = [];
  readonly fixtures: { sender: string; slots: unknown }[] = [];

  constructor(
    private readonly turns: Readonly<Record<string, TurnEvent[]>>,
    private readonly running: RunningCase,
  ) {}

  async setSlots(sender: string, slots: Readonly<Record<string, unknown>>) {
    this.fixtures.push({ sender, slots });
    if ('broken' in slots) throw new Error('slot "broken" is not defined in the domain');
    return Object.entries(slots).map(([name, value]) => ({ event: 'slot', name, value }));
  }

  async send(
    sender: string,
    text: string,
    metadata: Readonly<Record<string, unknown>> | undefined,
  ) {
    this.sent.push({ sender, text, metadata, running: this.running.message });
    return [{ event: 'user', text }, ...(this.turns[text] ?? [])];
  }
}

const TURNS: Record<string, TurnEvent[]> = {
  go: [
    { event: 'flow_started', flow_id: 'a' },
    { event: 'bot', text: 'first' },
    { event: 'flow_started', flow_id: 'b' },
    { event: 'bot', text: 'second' },
  ],
};

async function run(tests: string, options: { failFast?: boolean } = {}) {
  const dir = await writeProject({ 'tests/t.yml': tests });
  const { suite, errors } = await loadSuite(path.join(dir, 'tests/t.yml'));
  expect(errors).toEqual([]);
  const running: RunningCase = { name: undefined, message: undefined };
  const target = new ScriptedTarget(TURNS, running);
  let sender = 0;
  const results: CaseResult[] = [];
  await runSuite(suite, {
    target,
    running,
    context: { flowName: (id) => id, responseTexts: () => [] },
    newSender: () => `s${++sender}`,
    now: () => 0,
    onResult: (r) => results.push(r),
    ...options,
  });
  return { results, target, running };
}

describe('running test cases', () => {
  it('runs each test case as a new conversation, its metadata merged under the step metadata', async () => {
    const { target, results, running } = await run(`metadata:
  - app:
      channel: web
      lang: en
  - german:
      lang: de
fixtures:
  - vip:
      - tier: gold
  - named:
      - name: Ada
test_cases:
  - test_case: one
    metadata: app
    fixtures: [vip, named]
    steps:
      - user: hi
      - user: hallo
        metadata: german
  - test_case: two
    steps:
      - user: hi
`);
    expect(results.map((r) => r.status)).toEqual(['passed', 'passed']);
    expect(target.fixtures).toEqual([{ sender: 's1', slots: { tier: 'gold', name: 'Ada' } }]);
    expect(target.sent).toEqual([
      { sender: 's1', text: 'hi', metadata: { channel: 'web', lang: 'en' }, running: 'hi' },
      { sender: 's1', text: 'hallo', metadata: { channel: 'web', lang: 'de' }, running: 'hallo' },
      { sender: 's2', text: 'hi', metadata: undefined, running: 'hi' },
    ]);
    expect(running).toEqual({ name: undefined, message: undefined });
  });

  it('checks slot steps before the first message against what the fixtures set', async () => {
    const { results } = await run(`fixtures:
  - vip:
      - tier: gold
test_cases:
  - test_case: fixture slot
    fixtures: [vip]
    steps:
      - slot_was_set:
          - tier: silver
      - user: hi
`);
    expect(results[0]?.failure).toMatchObject({
      step: 'slot_was_set: tier = "silver"',
      expected: 'slot tier set to "silver"',
      actual: 'slot tier was set to "gold"',
    });
  });

  it('fails a test case whose fixtures cannot be set, at its fixtures', async () => {
    const { results, target } = await run(`fixtures:
  - bad:
      - broken: 1
test_cases:
  - test_case: bad fixture
    fixtures: [bad]
    steps:
      - user: hi
`);
    expect(results[0]?.failure).toMatchObject({
      step: 'fixtures: bad',
      actual: 'slot "broken" is not defined in the domain',
    });
    expect(target.sent).toEqual([]);
  });

  it('with assertion order, looks for each assertion after the event the previous one matched', async () => {
    const inOrder = await run(`test_cases:
  - test_case: in order
    steps:
      - user: go
        assertion_order_enabled: true
        assertions:
          - flow_started: a
          - bot_uttered:
              text_matches: first
          - flow_started: b
`);
    expect(inOrder.results[0]?.status).toBe('passed');
    const outOfOrder = await run(`test_cases:
  - test_case: out of order
    steps:
      - user: go
        assertion_order_enabled: true
        assertions:
          - flow_started: b
          - bot_uttered:
              text_matches: first
  - test_case: any order
    steps:
      - user: go
        assertions:
          - flow_started: b
          - bot_uttered:
              text_matches: first
`);
    expect(outOfOrder.results.map((r) => r.status)).toEqual(['failed', 'passed']);
    expect(outOfOrder.results[0]?.failure?.step).toMatch(/assertion_order_enabled/);
  });

  it('checks only the assertions of a test case that has some, as Rasa does', async () => {
    const { results } = await run(`test_cases:
  - test_case: assertions win
    steps:
      - user: go
        assertions:
          - flow_started: a
      - bot: never said
`);
    expect(results[0]?.status).toBe('passed');
  });

  it('stops after the first failure with fail fast', async () => {
    const tests = `test_cases:
  - test_case: fails
    steps:
      - user: go
      - bot: third
  - test_case: passes
    steps:
      - user: go
      - bot: second
`;
    expect((await run(tests)).results.map((r) => r.status)).toEqual(['failed', 'passed']);
    expect((await run(tests, { failFast: true })).results.map((r) => r.status)).toEqual(['failed']);
  });
});
