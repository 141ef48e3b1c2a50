import { execFile } from 'node:child_process';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/localProcess.js';
import { modulesLoaded } from '../helpers/modulesLoaded.js';
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

describe('a project outside the repository', () => {
  it('imports switchboard/sdk by package name and its classes are the runtime’s own', async () => {
    const dir = await writeProject({
      ...BASE_PROJECT,
      'sub_agents/helper/config.yml': `${BASE_PROJECT['sub_agents/helper/config.yml']}configuration:\n  module: custom.helper.HelperAgent\n`,
      'custom/helper.ts': `import { McpOpenAgent, type AgentToolResult } from 'switchboard/sdk';
export class HelperAgent extends McpOpenAgent {
  override async processToolOutput(current: Readonly<Record<string, AgentToolResult>>) {
    return Object.keys(current).length > 0 ? [] : [];
  }
}
`,
    });
    // As npm installs the package: node_modules/switchboard in the project's folder.
    await mkdir(path.join(dir, 'node_modules'), { recursive: true });
    await symlink(REPO_ROOT, path.join(dir, 'node_modules', 'switchboard'));

    const { stdout } = await promisify(execFile)(
      process.execPath,
      [path.join(REPO_ROOT, 'bin/switchboard.js'), 'validate', '--project', dir],
      { cwd: dir },
    );

    expect(stdout.trim()).toMatch(/^valid: /);
  });
});

describe('the compiled switchboard/sdk', () => {
  it('loads without the sources and type-checks a project’s agent against its declarations', async () => {
    const run = promisify(execFile);
    await run('npm', ['run', 'build:sdk'], { cwd: REPO_ROOT });
    const loaded = await run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const sdk = await import(${JSON.stringify(path.join(REPO_ROOT, 'dist/sdk/index.js'))}); console.log(Object.keys(sdk).sort().join(' '));`,
      ],
      { cwd: REPO_ROOT },
    );
    expect(loaded.stdout.trim()).toBe('A2AAgent McpBaseAgent McpOpenAgent McpTaskAgent');

    // A project of its own with a tsconfig of its own: it sees the declarations only.
    const dir = await tempDir('switchboard-sdk-types-');
    await mkdir(path.join(dir, 'node_modules'), { recursive: true });
    await symlink(REPO_ROOT, path.join(dir, 'node_modules', 'switchboard'));
    await writeFile(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          target: 'ES2023',
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: [],
        },
        include: ['agent.ts'],
      }),
    );
    await writeFile(
      path.join(dir, 'agent.ts'),
      `import { McpOpenAgent, type AgentSlotEvent, type AgentToolResult } from 'switchboard/sdk';
export class Agent extends McpOpenAgent {
  override async processToolOutput(
    current: Readonly<Record<string, AgentToolResult>>,
  ): Promise<readonly AgentSlotEvent[]> {
    return Object.values(current).map((r) => ({ event: 'slot', name: 'seen', value: r.toolName }));
  }
}
// @ts-expect-error: a hook's result is checked against the declarations
export const wrong: AgentSlotEvent = { event: 'not a slot event', name: 'x', value: 1 };
`,
    );
    await writeFile(path.join(dir, 'package.json'), '{ "type": "module" }\n');
    const tsc = path.join(REPO_ROOT, 'node_modules/typescript/bin/tsc');
    const checked = await run(process.execPath, [tsc, '-p', dir], { cwd: dir }).then(
      () => ({ code: 0, stdout: '' }),
      (error: { code: number; stdout: string }) => error,
    );
    expect(checked.stdout).toBe('');
    expect(checked.code).toBe(0);
  }, 120_000);
});

describe('the package tarball', () => {
  it('holds the runtime, the CLI, the deploy app and the compiled SDK, and no tests, benchmarks or secrets', async () => {
    const { stdout } = await promisify(execFile)(
      'npm',
      ['pack', '--dry-run', '--json', '--ignore-scripts'],
      { cwd: REPO_ROOT },
    );
    const [pack] = JSON.parse(stdout) as { files: { path: string }[] }[];
    const files = (pack?.files ?? []).map((f) => f.path);
    const top = new Set(files.map((file) => file.split('/')[0]));

    for (const needed of ['bin', 'src', 'functions', 'infra', 'package.json', 'CHANGELOG.md']) {
      expect(top).toContain(needed);
    }
    expect(files).toContain('bin/switchboard.js');
    for (const left of ['test', 'bench', '.env', '.secrets.json', 'custom', 'sub_agents', 'data']) {
      expect(top).not.toContain(left);
    }
  });
});

describe('switchboard --help', () => {
  it('answers without loading the TypeScript loader or any command', async () => {
    const loaded: string[] = [];
    for (const argv of [['--help'], ['run', '--help']]) {
      const { urls, stdout } = await modulesLoaded(
        [path.join(REPO_ROOT, 'bin/switchboard.js'), ...argv],
        { cwd: REPO_ROOT },
      );
      expect(stdout).toMatch(/^usage: switchboard /);
      loaded.push(...urls);
    }

    expect(loaded.some((url) => url.endsWith('/bin/switchboard.js'))).toBe(true);
    expect(
      loaded.filter((url) => url.includes('/node_modules/tsx/') || url.endsWith('.ts')),
    ).toEqual([]);
  });
});
