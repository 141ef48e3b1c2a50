import { execFile, spawn } from 'node:child_process';
import { cp, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { demoPeersOnFreePorts, freePort, REPO_ROOT } from '../helpers/localProcess.js';
import { tempDir } from '../helpers/tempDirs.js';

const run = promisify(execFile);

/** The example assistant's own files: what a user's project holds. */
const PROJECT_FILES = [
  '.env',
  'config.yml',
  'endpoints.yml',
  'domain',
  'data',
  'sub_agents',
  'custom',
  'prompts',
  'tests',
];

/** Failures of npm that mean the registry could not be reached, not that the package is wrong. */
const UNREACHABLE = /E(NOTFOUND|AI_AGAIN|CONNREFUSED|CONNRESET|TIMEDOUT)|ETIMEDOUT|network/i;

/**
 * Switchboard as a user installs it: the package packed as `npm pack` makes it, installed from
 * its tarball into an empty folder outside the repository with the local emulators. There
 * `switchboard init` writes a new assistant, which runs through its npm scripts; the example
 * assistant, copied beside it, has its `custom/` TypeScript import `switchboard/sdk`. This test
 * alone needs the npm registry, to install the tarball's dependencies.
 */
describe('the installed package', () => {
  it('creates a project with init, which starts, passes its tests, validates and synthesizes', async () => {
    const packDir = await tempDir('switchboard-pack-');
    const { stdout: packed } = await run('npm', ['pack', '--json', '--pack-destination', packDir], {
      cwd: REPO_ROOT,
      maxBuffer: 64 * 1024 * 1024,
    });
    const [pack] = JSON.parse(packed) as { filename: string }[];
    const tarball = path.join(packDir, pack?.filename ?? '');

    const dir = await tempDir('switchboard-user-');
    await writeFile(
      path.join(dir, 'package.json'),
      `${JSON.stringify({ name: 'my-assistant', private: true, type: 'module' }, null, 2)}\n`,
    );
    const registry = (await run('npm', ['config', 'get', 'registry'])).stdout.trim();
    await run(
      'npm',
      [
        'install',
        '--no-audit',
        '--no-fund',
        tarball,
        'dynalite@4.0.0',
        'fauxqs@1.9.2',
        'express@5.3.0',
      ],
      { cwd: dir, maxBuffer: 64 * 1024 * 1024 },
    ).catch((error: { stderr?: string; message: string }) => {
      const reason = error.stderr ?? error.message;
      throw new Error(
        UNREACHABLE.test(reason)
          ? `installing the package needs the npm registry (${registry}), which could not be reached: ${reason}`
          : `npm install failed: ${reason}`,
      );
    });
    const env = { ...process.env, OPENAI_API_KEY: '', OPENAI_BASE_URL: '' };

    // A new assistant: init fills the folder, and its package.json keeps the tarball dependency.
    const initialized = await run('npx', ['switchboard', 'init'], { cwd: dir, env });
    expect(initialized.stdout).toContain('created an assistant in . (13 files)');
    await run('npm', ['install', '--no-audit', '--no-fund'], {
      cwd: dir,
      maxBuffer: 64 * 1024 * 1024,
    });
    const validated = await run('npm', ['run', '--silent', 'validate'], { cwd: dir, env });
    expect(validated.stdout.trim()).toBe(
      'valid: 1 flows, 1 slots, 1 responses, 1 sub agents, 1 MCP servers',
    );
    // Its MCP server on a free port, so that parallel runs do not collide: the server listens
    // where endpoints.yml says the assistant reaches it.
    const port = await freePort();
    const endpoints = path.join(dir, 'endpoints.yml');
    await writeFile(
      endpoints,
      (await readFile(endpoints, 'utf8')).replace('127.0.0.1:8940', `127.0.0.1:${port}`),
    );
    const tested = await run('npm', ['test', '--silent'], { cwd: dir, env });
    expect(tested.stdout.trim().split('\n').at(-1)).toBe('2 passed, 0 failed');
    await playsOnNpmStart(dir, env);

    // The example assistant beside it, whose custom/ TypeScript extends the SDK's classes.
    const example = path.join(dir, 'example');
    for (const file of PROJECT_FILES) {
      await cp(path.join(REPO_ROOT, file), path.join(example, file), { recursive: true });
    }
    const exampleValid = await run('npx', ['switchboard', 'validate', '--project', 'example'], {
      cwd: dir,
      env,
    });
    expect(exampleValid.stdout.trim()).toMatch(/^valid: 6 flows/);
    const exampleTested = await run(
      'npx',
      [
        'switchboard',
        'test',
        '--project',
        'example',
        '--junit-xml',
        path.join(dir, 'results.xml'),
        ...(await demoPeersOnFreePorts()),
      ],
      { cwd: dir, env },
    );
    expect(exampleTested.stdout.trim().split('\n').at(-1)).toMatch(/^\d+ passed, 0 failed$/);
    // The project's modules ran from the project: none of the repository's files were needed.
    expect(await readdir(path.join(dir, 'node_modules', 'switchboard'))).not.toContain('test');

    // Deploying the new assistant: the deploy tooling (optional peers) and init's cdk.json.
    const manifest = JSON.parse(await readFile(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
      peerDependencies: Record<string, string>;
    };
    const tooling = ['aws-cdk', 'aws-cdk-lib', 'constructs', 'cdk-nag', 'esbuild'].map(
      (name) => `${name}@${manifest.peerDependencies[name]}`,
    );
    await run('npm', ['install', '--no-audit', '--no-fund', '--save-dev', ...tooling], {
      cwd: dir,
      maxBuffer: 64 * 1024 * 1024,
    });
    await run('npm', ['run', 'synth', '--', '--no-notices', '--quiet'], {
      cwd: dir,
      env,
      maxBuffer: 64 * 1024 * 1024,
    });
    const synthesized = await readdir(path.join(dir, 'cdk.out'));
    expect(synthesized).toEqual(
      expect.arrayContaining([
        'SwitchboardState.template.json',
        'SwitchboardRuntime.template.json',
      ]),
    );
    // The assistant bundle is the project's, beside it, not inside the installed package.
    expect(await readdir(path.join(dir, '.switchboard'))).toContain('assistant.json');
    expect(await readdir(path.join(dir, 'node_modules', 'switchboard'))).not.toContain(
      '.switchboard',
    );
  }, 300_000);
});

/**
 * `npm start` in the new project, as a user runs it (on a free port): it plays the project's
 * example conversation without a key, and stops at SIGTERM.
 */
async function playsOnNpmStart(
  dir: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<void> {
  // Its own process group: npm runs the script in a shell, and the whole group is stopped.
  const child = spawn('npm', ['start', '--', '--port', '0'], {
    cwd: dir,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += String(chunk);
  });
  child.stderr.on('data', (chunk) => {
    output += String(chunk);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`npm start did not listen:\n${output}`)),
        60_000,
      );
      const check = () => {
        const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
        if (match?.[1]) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      };
      child.stdout.on('data', check);
      void exited.then(() => reject(new Error(`npm start exited:\n${output}`)));
    });
    const say = async (message: string) => {
      const response = await fetch(`${url}/webhooks/rest/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ sender: 'installed', message }),
      });
      return ((await response.json()) as { text?: string }[]).map((m) => m.text);
    };
    expect(await say('Where is my order?')).toEqual([
      'What is your order number? It looks like A-1001.',
    ]);
    expect(await say('A-1001')).toEqual([
      'Order A-1001 left our warehouse on 1 December with Parcel Express and arrives on 8 December.',
      'Can I help you with anything else?',
    ]);
  } finally {
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
    await exited;
  }
}
