import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { BANK_PROJECT } from '../helpers/e2eProject.js';
import { demoPeersOnFreePorts, REPO_ROOT } from '../helpers/localProcess.js';
import { writeProject } from '../helpers/project.js';
import { tempDir } from '../helpers/tempDirs.js';

const run = promisify(execFile);

describe('switchboard test as a command', () => {
  it('exits 1 when a test case fails, and ends by itself', async () => {
    const dir = await writeProject({
      ...BANK_PROJECT,
      // Outside a "type": "module" package, the CLI's loader cannot import custom/*.ts.
      'package.json': '{ "type": "module" }\n',
      'tests/e2e_test_cases.yml': `test_cases:
  - test_case: asks for the recipient
    steps:
      - user: I want to send money
      - utter: utter_ask_recipient
  - test_case: tells the balance
    steps:
      - user: /check_balance
      - user: /SetSlots(account_type=checking)
      - bot: Your checking balance is 1000000.
`,
    });
    const result = await run(
      process.execPath,
      [path.join(REPO_ROOT, 'bin/switchboard.js'), 'test', '--project', dir],
      { cwd: dir, env: { ...process.env, OPENAI_API_KEY: '', OPENAI_BASE_URL: '' } },
    ).then(
      () => ({ code: 0, stdout: '' }),
      (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
    );
    expect(result.code).toBe(1);
    const lines = result.stdout.trim().split('\n');
    expect(lines[0]).toMatch(
      /^PASS {2}asks for the recipient {2}\(tests\/e2e_test_cases\.yml:2:16, /,
    );
    expect(lines.slice(1, 5)).toEqual([
      expect.stringMatching(/^FAIL {2}tells the balance /),
      '      at tests/e2e_test_cases.yml:10:9  bot: "Your checking balance is 1000000."',
      '      expected: bot says "Your checking balance is 1000000."',
      '      actual:   bot said "Looking up your checking account."; "Your checking balance is 1200." (utter_balance); "Can I help you with anything else?" (utter_can_do_something_else)',
    ]);
    expect(lines.at(-1)).toBe('1 passed, 1 failed');
  }, 60_000);

  it("passes the example's own tests with the demo model and its demo peers, without a key", async () => {
    const junit = path.join(await tempDir('switchboard-example-tests-'), 'results.xml');
    const result = await run(
      process.execPath,
      [
        path.join(REPO_ROOT, 'bin/switchboard.js'),
        'test',
        '--junit-xml',
        junit,
        ...(await demoPeersOnFreePorts()),
      ],
      { cwd: REPO_ROOT, env: { ...process.env, OPENAI_API_KEY: '', OPENAI_BASE_URL: '' } },
    );

    const lines = result.stdout.trim().split('\n');
    const passedLines = lines.filter((line) => line.startsWith('PASS'));
    expect(passedLines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^PASS {2}asks for the car before booking a test drive/),
        expect.stringMatching(/^PASS {2}researches a car, books a test drive and buys it/),
      ]),
    );
    expect(lines.at(-1)).toBe(`${passedLines.length} passed, 0 failed`);
    expect(result.stderr).toContain('the scripted demo model writes the commands');
  }, 120_000);
});
