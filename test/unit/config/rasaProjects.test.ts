import { execFile } from 'node:child_process';
import { mkdir, rename, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../../src/cli/io.js';
import { main } from '../../../src/cli/main.js';
import { loadAssistant } from '../../../src/config/index.js';
import { REPO_ROOT } from '../../helpers/localProcess.js';
import { BASE_PROJECT, errorLines, loadProject, writeProject } from '../../helpers/project.js';
import { tempDir } from '../../helpers/tempDirs.js';

/** What real Rasa projects carry, loaded unchanged: each case is named after what broke. */

function captureIo(cwd: string): CliIo & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { out: (l) => stdout.push(l), err: (l) => stderr.push(l), cwd, env: {}, stdout, stderr };
}

const DOLLAR_DOMAIN = `slots:
  name:
    type: text
  car_price:
    type: float
responses:
  utter_ask_name:
    - text: What is your name?
  utter_done:
    - text: "The car costs \${car_price}."
  utter_jinja_price:
    - text: "That is \${{ slots.car_price }} in total."
      metadata:
        template: jinja
`;

describe('Rasa projects load unchanged', () => {
  it('keeps ${slot} in response texts as a dollar sign and a slot, not an environment variable', async () => {
    const { dir, result } = await loadProject({ 'domain.yml': DOLLAR_DOMAIN }, {});
    expect(errorLines(dir, result)).toEqual([]);
    expect(result.ok && result.assistant.responses.utter_done).toEqual([
      { text: 'The car costs ${car_price}.' },
    ]);
  });

  it('never reads the environment in flow content', async () => {
    const { dir, result } = await loadProject(
      {
        'data/flows.yml': `flows:
  greet:
    description: "Quote \${HOME} literally."
    steps:
      - collect: name
      - action: utter_done
`,
      },
      { HOME: '/root' },
    );
    expect(errorLines(dir, result)).toEqual([]);
    expect(result.ok && result.assistant.flows.greet?.description).toBe('Quote ${HOME} literally.');
  });

  it('still reads the environment in endpoints', async () => {
    const { dir, result } = await loadProject(
      {
        'endpoints.yml': (BASE_PROJECT['endpoints.yml'] ?? '').replace(
          'http://127.0.0.1:9000/mcp',
          'http://${TOOLS_HOST}/mcp',
        ),
      },
      {},
    );
    expect(errorLines(dir, result)).toEqual([
      "endpoints.yml:8:10: mcp_servers[0].url uses environment variable TOOLS_HOST, which is not set (set it in the environment or in the project's .env file)",
    ]);
  });

  it('follows symlinked domain files and flow folders', async () => {
    const shared = await writeProject({
      'domain/slots.yml': 'slots:\n  name:\n    type: text\n',
      'domain/responses.yml': (BASE_PROJECT['domain.yml'] ?? '').replace(
        /slots:[\s\S]*responses:/,
        'responses:',
      ),
      'flows/greet.yml': BASE_PROJECT['data/flows.yml'],
    });
    const dir = await writeProject({ 'endpoints.yml': BASE_PROJECT['endpoints.yml'] });
    await mkdir(path.join(dir, 'domain'));
    await symlink(path.join(shared, 'domain/slots.yml'), path.join(dir, 'domain/slots.yml'));
    await symlink(path.join(shared, 'domain/responses.yml'), path.join(dir, 'domain/more.yml'));
    await mkdir(path.join(dir, 'data'));
    await symlink(path.join(shared, 'flows'), path.join(dir, 'data/linked'));
    const result = await loadAssistant({ projectDir: dir, env: {} });
    expect(errorLines(dir, result)).toEqual([]);
    expect(result.ok && Object.keys(result.assistant.flows)).toContain('greet');
    expect(result.ok && Object.keys(result.assistant.slots)).toContain('name');
  });

  it('follows a symlinked domain folder and ends a link loop', async () => {
    const shared = await writeProject({ 'domain.yml': BASE_PROJECT['domain.yml'] });
    await mkdir(path.join(shared, 'domain'));
    await rename(path.join(shared, 'domain.yml'), path.join(shared, 'domain/all.yml'));
    // A link back to the folder it is in: walking it must end.
    await symlink(path.join(shared, 'domain'), path.join(shared, 'domain/again'));
    const dir = await writeProject({ 'data/flows.yml': BASE_PROJECT['data/flows.yml'] });
    await symlink(path.join(shared, 'domain'), path.join(dir, 'domain'));
    const result = await loadAssistant({ projectDir: dir, env: {} });
    expect(errorLines(dir, result)).toEqual([]);
    expect(result.ok && result.assistant.responses.utter_done).toBeDefined();
  });

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

  it('reads config, endpoints, domain and flows from where --config, --endpoints, --domain and --data say', async () => {
    const dir = await writeProject({
      'config/config.yml': BASE_PROJECT['config.yml'],
      'config/endpoints.yml': BASE_PROJECT['endpoints.yml'],
      'assistant/domain.yml': BASE_PROJECT['domain.yml'],
      'flows/a.yml': BASE_PROJECT['data/flows.yml'],
      'more/b.yml':
        'flows:\n  bye:\n    description: Say bye.\n    steps:\n      - action: utter_done\n',
      'sub_agents/helper/config.yml': BASE_PROJECT['sub_agents/helper/config.yml'],
    });
    const io = captureIo(dir);
    const argv = [
      'validate',
      '--config',
      'config/config.yml',
      '--endpoints',
      'config/endpoints.yml',
      '--domain',
      'assistant',
      '--data',
      'flows',
      '--data',
      'more/b.yml',
    ];
    expect(await main(argv, io)).toBe(0);
    expect(io.stdout).toEqual([
      'valid: 2 flows, 2 slots, 2 responses, 1 sub agents, 1 MCP servers',
    ]);
  });

  it('names a file that --config names but that is missing', async () => {
    const dir = await writeProject(BASE_PROJECT);
    const io = captureIo(dir);
    expect(await main(['validate', '--config', 'config/config.yml'], io)).toBe(1);
    expect(io.stderr[0]).toBe('config/config.yml:1:1: there is no file config/config.yml');
  });

  it('prints notes in the same order on every run', async () => {
    const dir = await writeProject({
      ...BASE_PROJECT,
      'config.yml': `recipe: default.v1\nlanguage: en\n${BASE_PROJECT['config.yml']}`,
      'domain.yml': `version: "3.1"\n${BASE_PROJECT['domain.yml']}`,
      'data/a.yml': 'version: "3.1"\nnlu: []\n',
      'data/b.yml': 'version: "3.1"\nstories: []\n',
      'data/c.yml': 'version: "3.1"\nrules: []\n',
    });
    const runs = await Promise.all(
      [1, 2, 3, 4, 5].map(async () => {
        const io = captureIo(dir);
        await main(['validate'], io);
        return io.stderr.join('\n');
      }),
    );
    expect(new Set(runs).size).toBe(1);
    expect(runs[0]?.split('\n').map((l) => l.split(':')[1])).toEqual([
      ' config.yml',
      ' data/a.yml',
      ' data/b.yml',
      ' data/c.yml',
      ' domain.yml',
    ]);
  });
});
