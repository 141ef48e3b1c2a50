import { execFile } from 'node:child_process';
import { cp, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { demoPeersOnFreePorts, REPO_ROOT } from '../helpers/localProcess.js';
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
 * its tarball into an empty folder outside the repository with the local emulators, and the
 * example assistant copied there with its `custom/` TypeScript importing `switchboard/sdk`. This
 * test alone needs the npm registry, to install the tarball's dependencies.
 */
describe('the installed package', () => {
  it('validates, tests and synthesizes a project in a folder of its own, through npx', async () => {
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
    for (const file of PROJECT_FILES) {
      await cp(path.join(REPO_ROOT, file), path.join(dir, file), { recursive: true });
    }
    const env = { ...process.env, OPENAI_API_KEY: '', OPENAI_BASE_URL: '' };

    const validated = await run('npx', ['switchboard', 'validate'], { cwd: dir, env });
    expect(validated.stdout.trim()).toMatch(/^valid: 6 flows/);

    const tested = await run(
      'npx',
      [
        'switchboard',
        'test',
        '--junit-xml',
        path.join(dir, 'results.xml'),
        ...(await demoPeersOnFreePorts()),
      ],
      { cwd: dir, env },
    );
    expect(tested.stdout.trim().split('\n').at(-1)).toMatch(/^\d+ passed, 0 failed$/);
    // The project's modules ran from the project: none of the repository's files were needed.
    expect(await readdir(path.join(dir, 'node_modules', 'switchboard'))).not.toContain('test');

    // Deploying: the deploy tooling (optional peers), a cdk.json naming the package's app.
    const manifest = JSON.parse(await readFile(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
      peerDependencies: Record<string, string>;
    };
    const tooling = ['aws-cdk', 'aws-cdk-lib', 'constructs', 'cdk-nag', 'esbuild'].map(
      (name) => `${name}@${manifest.peerDependencies[name]}`,
    );
    await run('npm', ['install', '--no-audit', '--no-fund', ...tooling], {
      cwd: dir,
      maxBuffer: 64 * 1024 * 1024,
    });
    await writeFile(
      path.join(dir, 'cdk.json'),
      '{ "app": "npx tsx node_modules/switchboard/infra/app.ts" }\n',
    );
    await run('npx', ['cdk', 'synth', '--no-notices', '--quiet', '-c', 'project=.'], {
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
