import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/localProcess.js';
import { BASE_PROJECT, writeProject } from '../helpers/project.js';
import { tempDir } from '../helpers/tempDirs.js';

/** The package's binaries as a user runs them: `switchboard validate` and the bundle build. */

describe('switchboard validate', () => {
  it('runs as the package binary', async () => {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [path.join(REPO_ROOT, 'bin/switchboard.js'), 'validate', '--project', REPO_ROOT],
      { cwd: REPO_ROOT },
    );
    expect(stdout.trim()).toBe(
      'valid: 6 flows, 12 slots, 13 responses, 3 sub agents, 4 MCP servers',
    );
    expect(stderr).toContain(
      'note: config.yml: not used by Switchboard, ignored: recipe, language, assistant_id, policies',
    );
  });
});

describe('Rasa projects load unchanged', () => {
  it('loads TypeScript actions in a project without package.json, or one that declares CommonJS', async () => {
    const dir = await tempDir('switchboard-nopkg-');
    const files: Record<string, string> = {
      'domain.yml': 'slots: {}\nresponses:\n  utter_hi:\n    - text: hi\n',
      'data/flows.yml':
        'flows:\n  hello:\n    description: d\n    steps:\n      - action: action_hello\n',
      'custom/actions.ts':
        "import { greeting } from './greeting';\nexport function action_hello(): { messages: { text: string }[] } {\n  return { messages: [{ text: greeting() }] };\n}\n",
      'custom/greeting.ts': "export const greeting = (): string => 'hello';\n",
    };
    for (const [name, text] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
      await writeFile(path.join(dir, name), text);
    }
    const validate = () =>
      promisify(execFile)(
        process.execPath,
        [path.join(REPO_ROOT, 'bin/switchboard.js'), 'validate'],
        {
          cwd: dir,
        },
      );
    expect((await validate()).stdout).toContain('valid: 1 flows');
    await writeFile(path.join(dir, 'package.json'), '{"type": "commonjs"}\n');
    expect((await validate()).stdout).toContain('valid: 1 flows');
  });

  it('builds the deployment bundle from where --config and --data say', async () => {
    const dir = await writeProject({
      'config/config.yml': BASE_PROJECT['config.yml'],
      'endpoints.yml': BASE_PROJECT['endpoints.yml'],
      'domain.yml': BASE_PROJECT['domain.yml'],
      'flows/greet.yml': BASE_PROJECT['data/flows.yml'],
      'sub_agents/helper/config.yml': BASE_PROJECT['sub_agents/helper/config.yml'],
    });
    const out = await tempDir('switchboard-bundle-');
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        path.join(REPO_ROOT, 'bin/build.js'),
        '--project',
        dir,
        '--config',
        path.join(dir, 'config/config.yml'),
        '--data',
        path.join(dir, 'flows'),
        '--out',
        out,
      ],
      { cwd: dir },
    );
    expect(stdout).toContain('registry.ts');
    const assistant = JSON.parse(await readFile(path.join(out, 'assistant.json'), 'utf8'));
    expect(Object.keys(assistant.flows)).toEqual(['greet']);
    expect(assistant.commandGenerator.llm).toEqual({ model_group: 'main' });
  });
});
