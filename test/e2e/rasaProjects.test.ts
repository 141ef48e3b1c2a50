import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/localProcess.js';
import { tempDir } from '../helpers/tempDirs.js';

const run = promisify(execFile);

/** Public Rasa projects, beside the repository and read-only: run as they are. */
const PROJECTS = path.resolve(REPO_ROOT, '../shared/rasa-projects');
const HERE = path.join(REPO_ROOT, 'test/e2e/rasaProjects');

/** `switchboard test` on a project, scripted by a commands file of ours, results kept out of it. */
async function switchboardTest(project: string, args: readonly string[]) {
  const junit = path.join(await tempDir('switchboard-junit-'), 'results.xml');
  return run(
    process.execPath,
    [
      path.join(REPO_ROOT, 'bin/switchboard.js'),
      'test',
      ...args,
      '--project',
      path.join(PROJECTS, project),
      '--commands',
      path.join(HERE, `${project}.commands.yml`),
      '--junit-xml',
      junit,
    ],
    { cwd: REPO_ROOT, env: { ...process.env, OPENAI_API_KEY: '', OPENAI_BASE_URL: '' } },
  ).then(
    ({ stdout }) => ({ code: 0, stdout }),
    (error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      stdout: `${error.stdout}\n${error.stderr}`,
    }),
  );
}

describe('rasa-calm-hybrid-demo', () => {
  it('passes the e2e suite it ships, its own pattern overrides loaded', async () => {
    const { code, stdout } = await switchboardTest('rasa-calm-hybrid-demo', []);
    const lines = stdout.trim().split('\n');
    expect(
      lines.filter((l) => l.startsWith('FAIL')),
      stdout,
    ).toEqual([]);
    expect(lines.filter((l) => l.startsWith('PASS  test_'))).toHaveLength(65);
    expect(lines.at(-1)).toBe('65 passed, 0 failed');
    expect(code).toBe(0);
  }, 60_000);

  it('runs its overrides of pattern_completed, pattern_chitchat, pattern_cannot_handle and pattern_search as Rasa does', async () => {
    const cases = path.join(HERE, 'rasa-calm-hybrid-demo.patterns.yml');
    const { code, stdout } = await switchboardTest('rasa-calm-hybrid-demo', [cases]);
    expect(stdout.trim().split('\n').at(-1), stdout).toBe('4 passed, 0 failed');
    expect(code).toBe(0);
  }, 60_000);
});
