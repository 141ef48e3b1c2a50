import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../../../src/cli/io.js';
import { main } from '../../../src/cli/main.js';
import { BANK_PROJECT, PASSING_TESTS } from '../../helpers/e2eProject.js';
import type { ProjectFilesSpec } from '../../helpers/project.js';
import { writeProject } from '../../helpers/project.js';
import { ScriptedOpenAi } from '../../helpers/scriptedOpenAi.js';

function captureIo(cwd: string, env: Record<string, string> = {}) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const io: CliIo = { out: (l) => stdout.push(l), err: (l) => stderr.push(l), cwd, env };
  return { io, stdout, stderr };
}

/** Runs `switchboard test` in process, the working directory being the project. */
async function runTests(
  files: ProjectFilesSpec,
  args: string[] = [],
  env: Record<string, string> = {},
) {
  const dir = await writeProject({ ...BANK_PROJECT, ...files });
  const { io, stdout, stderr } = captureIo(dir, env);
  const code = await main(['test', ...args], io);
  return { code, stdout, stderr, dir };
}

const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );

const FAILING_TESTS = `test_cases:
  - test_case: says the wrong amount
    steps:
      - user: I want to send money
      - user: Ada
      - bot: How much should Bo get?
  - test_case: asks for the recipient
    steps:
      - user: I want to send money
      - utter: utter_ask_recipient
  - test_case: starts the wrong flow
    steps:
      - user: I want to send money
        assertions:
          - flow_started: check_balance
`;

describe('switchboard test', () => {
  it('runs every step type and assertion type of a passing suite, writes JUnit XML and exits 0', async () => {
    const { code, stdout, stderr, dir } = await runTests({
      'tests/e2e_test_cases.yml': PASSING_TESTS,
    });
    expect(code).toBe(0);
    const verdicts = stdout.filter((l) => /^(PASS|FAIL) /.test(l)).map((l) => l.split('  (')[0]);
    expect(verdicts).toEqual([
      'PASS  sends money',
      'PASS  declines a transfer',
      'PASS  corrects the amount',
      'PASS  cancels a transfer',
      'PASS  asks which flow was meant',
      'PASS  checks the balance',
      'PASS  sends money as a premium member',
      'PASS  balance with a stub',
    ]);
    expect(stdout).toContain(
      '      not checked: tests/e2e_test_cases.yml:125:13  generative_response_is_relevant needs a real model to judge it',
    );
    expect(stdout.slice(-2)).toEqual([
      '8 passed, 0 failed',
      '2 assertion(s) not checked: they need a real model, and none was used',
    ]);
    expect(stderr).toContain(
      'scripted commands from tests/e2e_commands.yml: no model is called; sub agents cannot run, generative assertions are not checked',
    );
    const xml = await readFile(path.join(dir, 'tests/e2e_results.xml'), 'utf8');
    expect(xml).toContain(
      '<testsuite name="tests/e2e_test_cases.yml" tests="8" failures="0" errors="0" skipped="0"',
    );
    expect(xml.match(/<testcase /g)).toHaveLength(8);
    expect(xml).not.toContain('<failure');
    expect(xml).toContain(
      '<property name="not_checked" value="tests/e2e_test_cases.yml:127:13 generative_response_is_grounded needs a real model to judge it"/>',
    );
  });

  it('exits 1 and names each failing step with what was expected and what happened', async () => {
    const { code, stdout } = await runTests({ 'tests/e2e_test_cases.yml': FAILING_TESTS }, [
      '--junit-xml',
      'reports/junit.xml',
    ]);
    expect(code).toBe(1);
    const lines = stdout.map((l) => l.replace(/, \d+\.\d+ s\)$/, ')'));
    expect(lines).toEqual([
      'FAIL  says the wrong amount  (tests/e2e_test_cases.yml:2:16)',
      '      at tests/e2e_test_cases.yml:6:9  bot: "How much should Bo get?"',
      '      expected: bot says "How much should Bo get?"',
      '      actual:   bot said "How much should Ada get?" (utter_ask_amount)',
      'PASS  asks for the recipient  (tests/e2e_test_cases.yml:7:16)',
      'FAIL  starts the wrong flow  (tests/e2e_test_cases.yml:11:16)',
      '      at tests/e2e_test_cases.yml:15:13  user: "I want to send money" › flow_started: check_balance',
      '      expected: flow check_balance started',
      '      actual:   flows started: pattern_session_start, transfer_money',
      '1 passed, 2 failed',
    ]);
  });

  it('writes the failures into the JUnit XML at --junit-xml', async () => {
    const { dir } = await runTests({ 'tests/e2e_test_cases.yml': FAILING_TESTS }, [
      '--junit-xml',
      'reports/junit.xml',
    ]);
    const xml = await readFile(path.join(dir, 'reports/junit.xml'), 'utf8');
    expect(xml).toContain('<testsuites name="switchboard test" tests="3" failures="2"');
    expect(xml).toContain(
      '<failure message="bot: &quot;How much should Bo get?&quot;: expected bot says &quot;How much should Bo get?&quot;; actual bot said &quot;How much should Ada get?&quot; (utter_ask_amount)" type="AssertionError">at tests/e2e_test_cases.yml:6:9',
    );
    expect(await exists(path.join(dir, 'tests/e2e_results.xml'))).toBe(false);
  });

  it('stops at the first failing test case with --fail-fast', async () => {
    const { code, stdout } = await runTests({ 'tests/e2e_test_cases.yml': FAILING_TESTS }, [
      '--fail-fast',
    ]);
    expect(code).toBe(1);
    expect(stdout.filter((l) => /^(PASS|FAIL) /.test(l))).toHaveLength(1);
    expect(stdout.slice(-2)).toEqual(['0 passed, 1 failed', '2 not run after the first failure']);
  });

  it('refuses a user message the commands file does not cover, before running any test', async () => {
    const { code, stdout, stderr, dir } = await runTests({
      'tests/e2e_test_cases.yml': `test_cases:
  - test_case: sends money
    steps:
      - user: I want to send mony
`,
    });
    expect(code).toBe(2);
    expect(stdout).toEqual([]);
    expect(stderr.slice(-2)).toEqual([
      'tests/e2e_test_cases.yml:4:9: user message "I want to send mony" has no commands in tests/e2e_commands.yml (did you mean "I want to send money"?); add it under "commands:" (or "sends money::I want to send mony" for this test case only)',
      '1 error(s); the tests were not run',
    ]);
    expect(await exists(path.join(dir, 'tests/e2e_results.xml'))).toBe(false);
  });

  it('without a model or a commands file, runs tests whose messages are all shortcuts', async () => {
    const { code, stdout, stderr } = await runTests({
      'tests/e2e_commands.yml': undefined,
      'tests/e2e_test_cases.yml': `test_cases:
  - test_case: checks the balance
    steps:
      - user: /check_balance
      - utter: utter_ask_account_type
      - user: /SetSlots(account_type=checking)
      - bot: Your checking balance is 1200.
`,
    });
    expect(code).toBe(0);
    expect(stderr).toContain('every user message is a shortcut: no model is needed');
    expect(stdout.at(-1)).toBe('1 passed, 0 failed');
  });

  it('without a model or a commands file, exits 2 naming the first message that needs a model', async () => {
    const { code, stderr } = await runTests({ 'tests/e2e_test_cases.yml': PASSING_TESTS }, [
      '--no-commands',
    ]);
    expect(code).toBe(2);
    expect(stderr.at(-2)).toBe(
      'tests/e2e_test_cases.yml:21:9: no model for the command generator and no e2e_commands.yml beside the tests: 18 user message(s) need one, the first being "I want to send money". Set OPENAI_API_KEY (or give the model an api_base or api_key in endpoints.yml), or script the messages in e2e_commands.yml',
    );
  });

  it('reports every problem of a test file where it is written and exits 2', async () => {
    const { code, stdout, stderr } = await runTests({
      'tests/e2e_test_cases.yml': `test_cases:
  - test_case: broken
    fixtures: [gold]
    steps:
      - user: hi
        assertions:
          - flow_startd: transfer_money
      - bott: Hello
`,
    });
    expect(code).toBe(2);
    expect(stdout).toEqual([]);
    expect(stderr.slice(-4)).toEqual([
      'tests/e2e_test_cases.yml:7:13: unknown assertion "flow_startd" (did you mean "flow_started"?); known: flow_started, flow_completed, flow_cancelled, pattern_clarification_contains, action_executed, slot_was_set, slot_was_not_set, bot_uttered, bot_did_not_utter, generative_response_is_relevant, generative_response_is_grounded',
      'tests/e2e_test_cases.yml:8:9: a step must be one of: user, bot, utter, slot_was_set, slot_was_not_set (did you mean "bot"?)',
      'tests/e2e_test_cases.yml:2:16: test case "broken" uses fixture "gold", which no test file defines',
      '3 error(s); the tests were not run',
    ]);
  });

  it('exits 2 on a test path that does not exist', async () => {
    const { code, stderr } = await runTests({}, ['tests/missing.yml']);
    expect(code).toBe(2);
    expect(stderr[stderr.length - 1]).toMatch(
      /^switchboard test: .*tests\/missing\.yml: no such file or folder/,
    );
  });
});

describe('switchboard test with the project model', () => {
  let llm: ScriptedOpenAi;

  beforeAll(async () => {
    llm = await ScriptedOpenAi.start();
  });

  afterAll(async () => {
    await llm?.close();
  });

  it('asks the model to judge generative assertions and fails the one it scores low', async () => {
    llm.reply('{"score": 0.9, "reason": "it answers the question"}');
    llm.reply('{"score": 0.25, "reason": "the amount is made up"}');
    const { code, stdout } = await runTests(
      {
        'endpoints.yml': `model_groups:\n  - id: main\n    models:\n      - provider: openai\n        model: judge\n        api_base: ${llm.url}\n        api_key: \${JUDGE_KEY}\n`,
        'config.yml':
          'pipeline:\n  - name: CompactLLMCommandGenerator\n    llm:\n      model_group: main\n',
        'tests/e2e_test_cases.yml': `test_cases:
  - test_case: judges the balance answer
    steps:
      - user: /check_balance
      - user: /SetSlots(account_type=savings)
        assertions:
          - generative_response_is_relevant:
              threshold: 0.8
          - generative_response_is_grounded:
              threshold: 0.5
              ground_truth: The savings balance is 5000.
`,
      },
      ['--no-commands'],
      { JUDGE_KEY: 'sk-judge' },
    );
    expect(code).toBe(1);
    expect(stdout.map((l) => l.replace(/, \d+\.\d+ s\)$/, ')'))).toEqual([
      'FAIL  judges the balance answer  (tests/e2e_test_cases.yml:2:16)',
      '      at tests/e2e_test_cases.yml:9:13  user: "/SetSlots(account_type=savings)" › generative_response_is_grounded: {"threshold":0.5,"ground_truth":"The savings balance is 5000."}',
      '      expected: a generated message (one no domain response rendered) grounded at 0.5 or more',
      '      actual:   the judge scored it 0.25: the amount is made up',
      '0 passed, 1 failed',
    ]);
    const asked = llm.requests.map((r) => JSON.stringify(r.body));
    expect(asked).toHaveLength(2);
    expect(asked[0]).toContain('User message:\\n/SetSlots(account_type=savings)');
    expect(asked[0]).toContain('Assistant answer:\\nLooking up your savings account.');
    expect(asked[1]).toContain('Facts:\\nThe savings balance is 5000.');
    expect(llm.requests[0]?.headers.authorization).toBe('Bearer sk-judge');
    llm.verify();
  });
});
