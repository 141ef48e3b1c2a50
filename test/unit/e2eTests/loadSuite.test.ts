import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../../src/config/index.js';
import { definitionFor, loadSuite, TestPathError } from '../../../src/e2eTests/index.js';
import { PASSING_TESTS } from '../../helpers/e2eProject.js';
import { writeProject } from '../../helpers/project.js';

async function load(files: Record<string, string>, target = 'tests') {
  const dir = await writeProject(files);
  const result = await loadSuite(path.join(dir, target));
  return { ...result, dir, lines: result.errors.map((d) => formatDiagnostic(d, dir)) };
}

describe('reading e2e test files', () => {
  it('reads every step and assertion of a file, with where each is written', async () => {
    const { suite, lines } = await load({ 'tests/e2e_test_cases.yml': PASSING_TESTS });
    expect(lines).toEqual([]);
    expect(suite.cases.map((c) => c.name)).toEqual([
      'sends money',
      'declines a transfer',
      'corrects the amount',
      'cancels a transfer',
      'asks which flow was meant',
      'checks the balance',
      'sends money as a premium member',
      'balance with a stub',
    ]);
    const [sends] = suite.cases;
    expect(sends?.steps.map((s) => [s.kind, s.where.line])).toEqual([
      ['user', 21],
      ['utter', 22],
      ['user', 23],
      ['slot_was_set', 25],
      ['slot_was_not_set', 27],
      ['bot', 28],
      ['user', 29],
      ['slot_was_set', 31],
      ['slot_was_set', 32],
      ['slot_was_not_set', 34],
      ['utter', 35],
      ['user', 36],
      ['bot', 37],
      ['utter', 38],
    ]);
    expect(sends?.steps[7]).toMatchObject({ slot: { name: 'amount', hasValue: false } });
    expect(sends?.steps[8]).toMatchObject({ slot: { name: 'amount', hasValue: true, value: 50 } });
    const corrects = suite.cases[2]?.steps[3];
    expect(corrects).toMatchObject({ kind: 'user', text: 'make it 60', assertionOrder: true });
    expect(
      corrects?.kind === 'user' && corrects.assertions.map((a) => [a.type, a.where.line]),
    ).toEqual([
      ['flow_started', 61],
      ['slot_was_set', 62],
      ['bot_uttered', 65],
    ]);
    const [first] = suite.cases;
    if (!first) throw new Error('no test case');
    expect(definitionFor(suite.fixtures, first, 'premium')?.value).toEqual({
      membership: 'premium',
    });
    expect(definitionFor(suite.metadata, first, 'mobile')?.value).toEqual({
      channel_name: 'mobile',
      app_version: '2.1',
    });
    expect(suite.stubs.get('balance with a stub::action_check_balance')).toEqual({
      slots: { balance: 42 },
      messages: [{ text: 'The stub looked it up.' }],
    });
  });

  it('reads every test file of a folder and shares fixtures between them, skipping other YAML', async () => {
    const { suite, lines } = await load({
      'tests/a/fixtures.yml': 'fixtures:\n  - gold:\n      - membership: gold\ntest_cases: []\n',
      'tests/b/cases.yaml':
        'test_cases:\n  - test_case: gold member\n    fixtures: [gold]\n    steps:\n      - user: /check_balance\n',
      'tests/e2e_commands.yml': 'commands:\n  hi: offtopic reply\n',
      'tests/conftest.yml': 'llm_judge:\n  llm:\n    provider: openai\n',
      'tests/notes.txt': 'not yaml',
    });
    expect(lines).toEqual([]);
    expect(suite.files.map((f) => path.basename(f))).toEqual(['fixtures.yml', 'cases.yaml']);
    expect(suite.cases.map((c) => c.fixtures)).toEqual([['gold']]);
  });

  it('reports every problem where it is written', async () => {
    const { lines } = await load({
      'tests/e2e_test_cases.yml': `fixtures:
  - gold:
      - membership: gold
stub_custom_actions:
  action_pay:
    events:
      - event: restart
test_cases:
  - test_case: one
    fixtures: [golden]
    metadata: web
    steps:
      - user: hi
        assertions:
          - bot_uttered: {}
          - bot_uttered:
              text_matches: "(unclosed"
          - flow_completed:
              flow: x
          - slot_was_set: x
          - flow_started: a
            flow_completed:
              flow_id: b
      - slot_was_set:
          - a: 1
            b: 2
      - bot: ok
        utter: utter_ok
  - test_case: one
    steps: []
  - title: nameless
    steps:
      - user: hi
`,
    });
    expect(lines).toEqual([
      'tests/e2e_test_cases.yml:7:9: a stubbed action\'s event must be a "slot" event ({event: slot, name, value}) or a "bot" event ({event: bot, text}); got "restart"',
      'tests/e2e_test_cases.yml:15:26: test_cases[0].steps[0].assertions[0].bot_uttered needs at least one of utter_name, text_matches, buttons',
      'tests/e2e_test_cases.yml:17:29: text_matches "(unclosed" is not a valid regular expression',
      'tests/e2e_test_cases.yml:19:15: test_cases[0].steps[0].assertions[2].flow_completed is missing the required key "flow_id"',
      'tests/e2e_test_cases.yml:19:15: unknown key "flow" in test_cases[0].steps[0].assertions[2].flow_completed; allowed: flow_id, flow_step_id',
      'tests/e2e_test_cases.yml:20:27: test_cases[0].steps[0].assertions[3].slot_was_set must be a list (got string "x")',
      'tests/e2e_test_cases.yml:21:13: an assertion is a mapping with one key: flow_started, flow_completed, flow_cancelled, pattern_clarification_contains, action_executed, slot_was_set, slot_was_not_set, bot_uttered, bot_did_not_utter, generative_response_is_relevant, generative_response_is_grounded',
      'tests/e2e_test_cases.yml:25:13: a slot entry is a slot name or one "slot: value" pair',
      'tests/e2e_test_cases.yml:28:9: unknown key "utter" in test_cases[0].steps[2]; allowed: bot',
      'tests/e2e_test_cases.yml:30:12: test_cases[1].steps must list at least one step',
      'tests/e2e_test_cases.yml:31:5: test_cases[2] is missing the required key "test_case"',
      'tests/e2e_test_cases.yml:31:5: unknown key "title" in test_cases[2]; allowed: test_case, steps, fixtures, metadata',
      'tests/e2e_test_cases.yml:9:16: test case "one" uses fixture "golden", which no test file defines (did you mean "gold"?)',
      'tests/e2e_test_cases.yml:9:16: metadata "web" is not defined in any test file',
    ]);
  });

  it('runs test cases of the same name, each with the fixtures of its own file first', async () => {
    const file = (tier: string) =>
      `fixtures:\n  - member:\n      - tier: ${tier}\ntest_cases:\n  - test_case: same\n    fixtures: [member]\n    steps:\n      - user: hi\n`;
    const { suite, lines } = await load({
      'tests/a.yml': file('gold'),
      'tests/b.yml': file('silver'),
      'tests/c.yml':
        'test_cases:\n  - test_case: other\n    fixtures: [member]\n    steps:\n      - user: hi\n',
    });
    expect(lines).toEqual([]);
    expect(
      suite.cases.map((c) => [c.name, definitionFor(suite.fixtures, c, 'member')?.value]),
    ).toEqual([
      ['same', { tier: 'gold' }],
      ['same', { tier: 'silver' }],
      ['other', { tier: 'gold' }],
    ]);
  });

  it('reports a fixture defined twice in one file', async () => {
    const { lines } = await load({
      'tests/a.yml':
        'fixtures:\n  - vip:\n      - tier: gold\n  - vip:\n      - tier: silver\ntest_cases: []\n',
    });
    expect(lines).toEqual([
      'tests/a.yml:4:5: fixture "vip" is defined twice in this file (first at line 2)',
    ]);
  });

  it('refuses a path without tests', async () => {
    const dir = await writeProject({ 'tests/e2e_commands.yml': 'commands: {}\n' });
    await expect(loadSuite(path.join(dir, 'tests'))).rejects.toThrow(TestPathError);
    await expect(loadSuite(path.join(dir, 'nowhere'))).rejects.toThrow('no such file or folder');
  });
});
