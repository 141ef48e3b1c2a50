import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoPeersOnFreePorts, REPO_ROOT, startDemoSwitchboard } from '../helpers/localProcess.js';
import { tempDir } from '../helpers/tempDirs.js';

/** Shell words, quoted for `script -c`. */
function quoted(words: readonly string[]): string {
  return words.map((w) => `'${w.replaceAll("'", `'\\''`)}'`).join(' ');
}

/**
 * `switchboard shell` under a pseudo-terminal (util-linux's `script`), as a user types into it:
 * each line is sent once the shell shows its prompt again.
 */
async function typeIntoShell(
  args: readonly string[],
  lines: readonly (string | { readonly now: string })[],
  env: Readonly<Record<string, string>> = {},
): Promise<{ code: number | null; output: string }> {
  const command = quoted([
    process.execPath,
    path.join(REPO_ROOT, 'bin/switchboard.js'),
    'shell',
    ...args,
  ]);
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    cwd: REPO_ROOT,
    env: { ...process.env, OPENAI_API_KEY: '', OPENAI_BASE_URL: '', TERM: 'dumb', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  const prompts = () => output.split('you> ').length - 1;
  const waiters: { count: number; resolve: () => void }[] = [];
  const onData = (chunk: Buffer) => {
    output += chunk.toString('utf8');
    for (const waiter of waiters.filter((w) => prompts() >= w.count)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const promptNumber = (count: number) =>
    new Promise<void>((resolve, reject) => {
      if (prompts() >= count) return resolve();
      const timer = setTimeout(
        () => reject(new Error(`no prompt ${count} after 45 s:\n${output}`)),
        45_000,
      );
      waiters.push({
        count,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
  try {
    let typed = 0;
    for (const line of lines) {
      // A line is typed at the next prompt; `{ now }` is typed at once, while a turn runs.
      if (typeof line === 'string') {
        typed++;
        await promptNumber(typed);
        child.stdin.write(`${line}\r`);
      } else {
        child.stdin.write(line.now);
      }
    }
    return { code: await exited, output: output.replaceAll('\r', '') };
  } finally {
    child.kill('SIGKILL');
  }
}

describe('switchboard shell', () => {
  it('plays a conversation on a terminal: fillers, numbered buttons, /inspect', async () => {
    const { code, output } = await typeIntoShell(await demoPeersOnFreePorts(), [
      'Hi, can someone call me back?',
      'Ada',
      '0151 2345678',
      '2',
      '/inspect',
      'Can you recommend an electric SUV under 50000?',
      '/exit',
    ]);
    expect(code, output).toBe(0);
    expect(output).toContain('talking to the assistant as "shell-');
    expect(output).toContain('bot> Which number should we call, Ada?');
    // The buttons as numbered choices, and the number picks one.
    expect(output).toMatch(/ {5}1\) Morning\n {5}2\) Afternoon\n {5}3\) Evening\n/);
    expect(output).toContain('(Afternoon: /SetSlots(callback_time=afternoon))');
    expect(output).toContain(
      'bot> Done: a salesperson will call Ada on 0151 2345678 in the afternoon.',
    );
    // /inspect: the stack is empty once the flow ended; the slots it kept have values.
    expect(output).toMatch(/stack: \(empty\)\nslots: .*customer_id="demo-customer"/);
    // The research agent's filler line comes before its answer.
    const filler = output.indexOf('bot> Let me check the catalog.');
    const answer = output.indexOf('bot> Here are some options: Aurora EV');
    expect(filler).toBeGreaterThan(0);
    expect(answer).toBeGreaterThan(filler);
  }, 120_000);

  it('shows the stack and slots mid-flow, and leaves at end of input', async () => {
    const { code, output } = await typeIntoShell(
      [...(await demoPeersOnFreePorts()), '--sender', 'terminal-user'],
      ['Could I finance a car?', '/inspect', '\u0004'],
    );
    expect(code, output).toBe(0);
    expect(output).toContain('talking to the assistant as "terminal-user"');
    expect(output).toContain('bot> How much would you like to borrow?');
    expect(output).toMatch(/stack: estimate_financing \(at [^)]+\)/);
  }, 120_000);

  it('talks to a running assistant with --url, its token from the project’s .env', async () => {
    const token = 'shell-test-token';
    const running = await startDemoSwitchboard([], { SWITCHBOARD_REST_TOKEN: token });
    try {
      // The token in the project's .env, as `run` reads it.
      const project = await tempDir('switchboard-shell-project-');
      await writeFile(path.join(project, '.env'), `SWITCHBOARD_REST_TOKEN=${token}\n`);
      const { code, output } = await typeIntoShell(
        ['--url', running.url, '--sender', 'remote-user', '--project', project],
        ['Could I finance a car?', '/inspect', '/exit'],
      );
      expect(code, output).toBe(0);
      expect(output).toContain('bot> How much would you like to borrow?');
      expect(output).toMatch(/stack: estimate_financing \(at [^)]+\)/);
      // The running assistant printed the turn: the shell's messages went to it.
      expect(running.stderr()).toContain('remote-user < Could I finance a car?');
    } finally {
      await running.stop();
    }
  }, 120_000);

  it('leaves once the turn in progress ends when input ends during it (Ctrl-D)', async () => {
    const { code, output } = await typeIntoShell(await demoPeersOnFreePorts(), [
      'Can you recommend an electric SUV under 50000?',
      { now: '\u0004' },
    ]);
    expect(code, output).toBe(0);
    expect(output).toContain('bot> Here are some options: Aurora EV');
  }, 120_000);
});
