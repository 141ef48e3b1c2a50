import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../../src/config/index.js';
import {
  loadCommandsFile,
  loadSuite,
  ScriptedCommandModel,
  unscriptedMessages,
} from '../../../src/e2eTests/index.js';
import { writeProject } from '../../helpers/project.js';

const COMMANDS = `commands:
  I want to send money: start flow transfer_money
  "Ada  ": set slot recipient Ada
  two things:
    - set slot recipient Bo
    - set slot amount 20
  nothing at all:
  "declines a transfer::no": set slot confirm_transfer false
  declines_a_transfer::maybe: set slot confirm_transfer false
`;

async function commandsIn(text: string) {
  const dir = await writeProject({ 'tests/e2e_commands.yml': text });
  const loaded = await loadCommandsFile(path.join(dir, 'tests/e2e_commands.yml'));
  return { ...loaded, dir };
}

describe('the commands file', () => {
  it('answers each message with its commands, one per line, white space aside', async () => {
    const { commands } = await commandsIn(COMMANDS);
    const lookup = (text: string, testCase?: string) =>
      commands?.lookup({ name: testCase, message: text }, text);
    expect(lookup(' I want  to send money ')).toBe('start flow transfer_money');
    expect(lookup('Ada')).toBe('set slot recipient Ada');
    expect(lookup('two things')).toBe('set slot recipient Bo\nset slot amount 20');
    expect(lookup('nothing at all')).toBe('');
    expect(lookup('i want to send money')).toBeUndefined();
  });

  it('scopes an entry to one test case with "<test case>::<message>", as Rasa scopes stubs', async () => {
    const { commands } = await commandsIn(COMMANDS);
    const lookup = (text: string, testCase?: string) =>
      commands?.lookup({ name: testCase, message: text }, text);
    expect(lookup('no', 'declines a transfer')).toBe('set slot confirm_transfer false');
    expect(lookup('maybe', 'declines a transfer')).toBe('set slot confirm_transfer false');
    expect(lookup('no', 'sends money')).toBeUndefined();
    expect(lookup('no')).toBeUndefined();
  });

  it('plays the command generator for the running message, whatever the prompt', async () => {
    const { commands } = await commandsIn(COMMANDS);
    if (!commands) throw new Error('not loaded');
    const running = { name: 'sends money', message: 'Ada' };
    const model = new ScriptedCommandModel(commands, running);
    expect(await model.complete()).toEqual({ content: 'set slot recipient Ada' });
    running.message = 'I want to send mone';
    await expect(model.complete()).rejects.toThrow(
      /e2e_commands\.yml has no commands for "I want to send mone" \(did you mean "I want to send money"\?\)$/,
    );
  });

  it('reports a malformed file where the problem is', async () => {
    const { errors, dir } = await commandsIn('commands:\n  hi: { start: flow }\nextra: 1\n');
    expect(errors.map((d) => formatDiagnostic(d, dir))).toEqual([
      'tests/e2e_commands.yml:2:7: commands.hi has an invalid shape (got a mapping)',
      'tests/e2e_commands.yml:3:1: unknown key "extra" at the top level; allowed: commands, agents',
    ]);
  });

  it('finds the user messages of a suite it does not script, with where they are written', async () => {
    const dir = await writeProject({
      'tests/e2e_commands.yml': COMMANDS,
      'tests/cases.yml': `test_cases:
  - test_case: sends money
    steps:
      - user: I want to send money
      - user: /SetSlots(recipient=Cy)
      - user: no
`,
    });
    const { suite } = await loadSuite(path.join(dir, 'tests/cases.yml'));
    const { commands } = await loadCommandsFile(path.join(dir, 'tests/e2e_commands.yml'));
    if (!commands) throw new Error('not loaded');
    expect(unscriptedMessages(suite, commands, dir).map((d) => formatDiagnostic(d, dir))).toEqual([
      'tests/cases.yml:6:9: user message "no" has no commands in tests/e2e_commands.yml; add it under "commands:" (or "sends money::no" for this test case only)',
    ]);
  });
});
