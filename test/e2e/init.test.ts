import { execFile } from 'node:child_process';
import { readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { freePort, REPO_ROOT, say, startSwitchboard } from '../helpers/localProcess.js';
import { tempDir } from '../helpers/tempDirs.js';

const execFileAsync = promisify(execFile);
const BIN = path.join(REPO_ROOT, 'bin/switchboard.js');

/** Runs the CLI in `cwd` without a model key; resolves with its exit code and output. */
async function switchboard(
  cwd: string,
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return execFileAsync(process.execPath, [BIN, ...args], {
    cwd,
    env: { ...process.env, OPENAI_API_KEY: '', OPENAI_BASE_URL: '', ...env },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      stdout: error.stdout,
      stderr: error.stderr,
    }),
  );
}

/**
 * A scaffold written by `switchboard init`, its MCP server moved to a free port in endpoints.yml
 * (so that runs in parallel do not collide), with this checkout's packages as its node_modules.
 */
async function scaffold(): Promise<{ dir: string; env: Record<string, string> }> {
  const parent = await tempDir('switchboard-init-');
  const dir = path.join(parent, 'My Assistant');
  const created = await switchboard(parent, ['init', 'My Assistant']);
  expect(created).toMatchObject({ code: 0 });
  expect(created.stdout).toContain('created an assistant in My Assistant (13 files)');
  await symlink(path.join(REPO_ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  const port = await freePort();
  const endpoints = path.join(dir, 'endpoints.yml');
  const text = await readFile(endpoints, 'utf8');
  expect(text).toContain('http://127.0.0.1:8940/mcp');
  // The server listens where endpoints.yml says the assistant reaches it.
  await writeFile(endpoints, text.replace('127.0.0.1:8940', `127.0.0.1:${port}`));
  return { dir, env: {} };
}

describe('switchboard init', () => {
  let project: { dir: string; env: Record<string, string> };
  beforeAll(async () => {
    project = await scaffold();
  }, 60_000);

  it('writes Rasa’s layout, an agent, its MCP server, tests and a package to run them', async () => {
    const { dir } = project;
    const pkg = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8'));
    const ours = JSON.parse(await readFile(path.join(REPO_ROOT, 'package.json'), 'utf8'));
    expect(pkg).toEqual({
      name: 'my-assistant',
      version: '0.1.0',
      private: true,
      type: 'module',
      scripts: {
        start: 'switchboard run --peers mcp/orders.ts',
        test: 'switchboard test --peers mcp/orders.ts',
        validate: 'switchboard validate',
        synth: 'cdk synth -c project=.',
        deploy: 'cdk deploy --all -c project=.',
      },
      dependencies: {
        switchboard: `^${ours.version}`,
        '@modelcontextprotocol/sdk': ours.dependencies['@modelcontextprotocol/sdk'],
        zod: ours.dependencies.zod,
      },
    });
    for (const file of ['.gitignore', '.env.example', 'README.md', 'cdk.json']) {
      expect(await readFile(path.join(dir, file), 'utf8')).not.toBe('');
    }
    // Valid, with nothing to note: the scaffold uses no key Switchboard ignores.
    const validated = await switchboard(dir, ['validate']);
    expect(validated).toEqual({
      code: 0,
      stdout: 'valid: 1 flows, 1 slots, 1 responses, 1 sub agents, 1 MCP servers\n',
      stderr: '',
    });
  }, 60_000);

  it('passes its own tests without a key; the agent’s answers come from its MCP server', async () => {
    const { dir, env } = project;
    // The agent's scripted replies are rendered from its tool's results (tests/e2e_commands.yml):
    // they match the tests only when the MCP server answered.
    const passed = await switchboard(dir, ['test', '--peers', 'mcp/orders.ts'], env);
    expect(passed.stdout).toMatch(/^PASS {2}tells where an order is /m);
    expect(passed.stdout).toMatch(/^PASS {2}says when an order is not known /m);
    expect(passed.stdout).toContain('2 passed, 0 failed');
    expect(passed.code).toBe(0);
    expect(passed.stderr).toContain('scripted commands and sub agents from tests/e2e_commands.yml');
    expect(passed.stderr).toMatch(/peer mcp\/orders\.ts on http:\/\/127\.0\.0\.1:\d+\/mcp/);
  }, 60_000);

  it('plays its example conversation on npm start without a key, and says what it cannot answer', async () => {
    const { dir, env } = project;
    const running = await startSwitchboard(['--peers', 'mcp/orders.ts'], env, dir);
    try {
      const texts = async (message: string) =>
        (await say(running.url, 'first-user', message)).map((m) => m.text);
      expect(await texts('Where is my order?')).toEqual([
        'What is your order number? It looks like A-1001.',
      ]);
      expect(await texts('A-1001')).toEqual([
        'Order A-1001 left our warehouse on 1 December with Parcel Express and arrives on 8 December.',
        'Can I help you with anything else?',
      ]);
      expect(await texts('Can I return my shoes?')).toEqual([
        "Sorry, I didn't catch that. Could you say it another way?",
      ]);
    } finally {
      await running.stop();
    }
    expect(running.stderr()).toContain(
      'no OPENAI_API_KEY or model api_base: a scripted model answers the messages of tests/e2e_commands.yml',
    );
    expect(running.stderr()).toContain(
      `talk to it on the terminal: npx switchboard shell --url ${running.url}`,
    );
    expect(running.stderr()).toContain(
      'the scripted model has no commands for "Can I return my shoes?" in tests/e2e_commands.yml; it answers "Where is my order?", "A-1001", "B-2002"',
    );
  }, 60_000);

  it('overwrites nothing unless --force, and adds to a package.json already there', async () => {
    const dir = await tempDir('switchboard-init-again-');
    await writeFile(
      path.join(dir, 'package.json'),
      `${JSON.stringify({ name: 'shop', scripts: { test: 'vitest' }, dependencies: { zod: '4.0.0' } })}\n`,
    );
    const merged = await switchboard(dir, ['init']);
    expect(merged.code).toBe(0);
    expect(merged.stderr).toContain(
      'package.json keeps its own "test" script (vitest); Switchboard\'s would be: switchboard test --peers mcp/orders.ts',
    );
    const pkg = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8'));
    expect(pkg.name).toBe('shop');
    expect(pkg.scripts.test).toBe('vitest');
    expect(pkg.scripts.start).toBe('switchboard run --peers mcp/orders.ts');
    expect(pkg.dependencies.zod).toBe('4.0.0');
    expect(Object.keys(pkg.dependencies)).toContain('switchboard');

    const domain = path.join(dir, 'domain.yml');
    await writeFile(domain, 'slots: {}\n');
    const again = await switchboard(dir, ['init']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('domain.yml already exists');
    expect(again.stderr).toContain(
      'switchboard init: 12 file(s) would be overwritten; nothing was written. Choose an empty folder or pass --force',
    );
    expect(await readFile(domain, 'utf8')).toBe('slots: {}\n');

    expect(await switchboard(dir, ['init', '--force'])).toMatchObject({ code: 0 });
    expect(await readFile(domain, 'utf8')).toContain('utter_ask_order_id');
  }, 60_000);

  it('writes nothing where a file stands in the way or package.json is not JSON', async () => {
    const dir = await tempDir('switchboard-init-refused-');
    await writeFile(path.join(dir, 'tests'), 'a file\n');
    await writeFile(path.join(dir, 'package.json'), '{ "name": "broken",\n');
    const refused = await switchboard(dir, ['init']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('tests is a file, not a folder');
    expect(refused.stderr).toContain('switchboard init: nothing was written');
    expect(await readdir(dir)).toEqual(['package.json', 'tests']);

    await rm(path.join(dir, 'tests'));
    const broken = await switchboard(dir, ['init']);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/^package\.json: not valid JSON \(.*\); fix it or remove it/m);
    expect(await readdir(dir)).toEqual(['package.json']);
  }, 60_000);

  it('refuses a --peers module that is missing, exports no start() or fails to start', async () => {
    const { dir, env } = project;
    await writeFile(path.join(dir, 'mcp', 'empty.ts'), 'export const nothing = 1;\n');
    await writeFile(
      path.join(dir, 'mcp', 'throws.ts'),
      "export function start() {\n  throw new Error('no licence');\n}\n",
    );
    const missing = await switchboard(dir, ['test', '--peers', 'mcp/nope.ts'], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('switchboard test: --peers mcp/nope.ts: no such file');
    const empty = await switchboard(dir, ['test', '--peers', 'mcp/empty.ts'], env);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('switchboard test: mcp/empty.ts exports no start() function');
    // From another folder, --peers is relative to the project, as every file option is.
    const throws = await switchboard(
      path.dirname(dir),
      ['run', '--project', path.basename(dir), '--peers', 'mcp/throws.ts'],
      env,
    );
    expect(throws.code).toBe(1);
    expect(throws.stderr).toContain(
      `switchboard run: the peer ${path.basename(dir)}/mcp/throws.ts could not start: no licence`,
    );
  }, 60_000);

  it('does not start when its commands file is wrong, and says where', async () => {
    const { dir, env } = project;
    const file = path.join(dir, 'tests', 'e2e_commands.yml');
    const commands = await readFile(file, 'utf8');
    try {
      await writeFile(file, commands.replace('  order_agent:', '  order_agnt:'));
      const run = await switchboard(dir, ['run', '--peers', 'mcp/orders.ts', '--port', '0'], env);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(
        /^tests\/e2e_commands\.yml:\d+:3: agents: the project has no sub agent "order_agnt" \(did you mean "order_agent"\?\)$/m,
      );
      expect(run.stderr).toContain(
        'switchboard run: tests/e2e_commands.yml, which plays the model without a key, has 1 error(s)',
      );
      const test = await switchboard(dir, ['test'], env);
      expect(test.code).toBe(2);
      expect(test.stderr).toContain('agents: the project has no sub agent "order_agnt"');
    } finally {
      await writeFile(file, commands);
    }
  }, 60_000);
});
