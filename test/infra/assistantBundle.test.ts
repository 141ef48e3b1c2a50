import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type AssistantBundle,
  AssistantBundleError,
  deployedSecretNames,
  generateAssistantBundle,
  importSpecifier,
} from '../../src/build/index.js';
import { BASE_PROJECT, writeProject } from '../helpers/project.js';
import { tempDir } from '../helpers/tempDirs.js';

/** The base project with custom actions, a hook and an agent class in two module files. */
const EXTENDED_PROJECT = {
  ...BASE_PROJECT,
  'endpoints.yml': `model_groups:
  - id: main
    models:
      - provider: openai
        model: gpt-4.1
        api_key: \${MODEL_KEY}
mcp_servers:
  - name: tools
    url: http://127.0.0.1:9000/mcp
    type: http
    api_key: \${TOOLS_KEY}
    pre_call_hook: custom.extensions.addTenant
a2a_server:
  description: Greets people.
  include_conversation_repair: false
`,
  'domain.yml': `slots:
  name:
    type: text
responses:
  utter_ask_name:
    - text: What is your name?
  utter_done:
    - text: Done, {name}.
      custom:
        secret: NOT_A_CREDENTIAL
`,
  'sub_agents/helper/config.yml': `agent:
  name: helper
  description: Helps with anything.
configuration:
  module: custom.extensions.HelperAgent
connections:
  mcp_servers:
    - name: tools
`,
  'custom/extensions.ts': `export class HelperAgent {}
export function addTenant() {
  return { metadata: { tenant: 'bundle-test' } };
}
`,
  'custom/actions.ts': `export function action_remember() {
  return { slots: { name: 'remembered' } };
}
`,
};

describe('generateAssistantBundle', () => {
  let dir: string;
  let out: string;
  let bundle: AssistantBundle;

  beforeAll(async () => {
    dir = await writeProject(EXTENDED_PROJECT);
    out = await tempDir('switchboard-bundle-');
    bundle = await generateAssistantBundle(dir, undefined, out);
  });

  it('writes the assistant as JSON', async () => {
    const written: unknown = JSON.parse(await readFile(path.join(out, 'assistant.json'), 'utf8'));
    expect(written).toEqual(JSON.parse(JSON.stringify(bundle.assistant)));
    expect(bundle.assistant.actions).toEqual(['action_remember']);
  });

  it('imports every extension file once, by a relative path, keyed as the assistant names it', async () => {
    const source = await readFile(bundle.registryFile, 'utf8');
    const imports = source.match(/^import \* as m\d+ from "[^"]+";$/gm) ?? [];
    expect(imports).toHaveLength(2);
    expect(source).toContain(`from "${importSpecifier(out, path.join(dir, 'custom/actions.ts'))}"`);
    expect(source).not.toContain('import(');

    const registry = (await import(/* @vite-ignore */ bundle.registryFile)) as {
      assistant: unknown;
      modules: Record<string, Record<string, unknown>>;
    };
    const files = Object.values(bundle.assistant.extensions).map((e) => e.file);
    expect(Object.keys(registry.modules).sort()).toEqual([...new Set(files)].sort());
    for (const location of Object.values(bundle.assistant.extensions)) {
      expect(typeof registry.modules[location.file]?.[location.exportName]).toBe('function');
    }
    expect(registry.assistant).toEqual(JSON.parse(JSON.stringify(bundle.assistant)));
  });

  it("writes the A2A server's part apart: its settings and the card's name and skills, no flows or modules", async () => {
    const source = await readFile(bundle.a2aServerFile, 'utf8');
    expect(source).not.toMatch(/^import /m);
    const part = (await import(/* @vite-ignore */ bundle.a2aServerFile)) as {
      a2aServer: unknown;
      card: { projectName: string; skills: unknown[] };
    };
    expect(part.a2aServer).toEqual(JSON.parse(JSON.stringify(bundle.assistant.a2aServer)));
    expect(part.card.projectName).toBe(path.basename(dir));
    expect(part.card.skills).toEqual(
      Object.keys(bundle.assistant.flows).map((id) =>
        expect.objectContaining({ id, tags: ['flow'] }),
      ),
    );
    expect(part.card.skills.length).toBeGreaterThan(0);
  });

  it('keeps credentials as references', async () => {
    const source = await readFile(bundle.registryFile, 'utf8');
    expect(source).toContain('{"secret":"TOOLS_KEY"}');
  });

  it('refuses an invalid project, listing every diagnostic as FILE:LINE:COL', async () => {
    const broken = await writeProject({
      ...BASE_PROJECT,
      'data/flows.yml':
        'flows:\n  greet:\n    description: Greet.\n    steps:\n      - collect: nmae\n',
    });
    const error = await generateAssistantBundle(broken, undefined, out).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AssistantBundleError);
    expect((error as Error).message).toMatch(/^data\/flows\.yml:5:\d+: .*nmae/m);
  });
});

describe('deployedSecretNames', () => {
  it('lists every credential reference and the model key, not look-alike data', async () => {
    const dir = await writeProject(EXTENDED_PROJECT);
    const out = await tempDir('switchboard-bundle-');
    const { assistant } = await generateAssistantBundle(dir, undefined, out);
    expect(deployedSecretNames(assistant)).toEqual(['MODEL_KEY', 'OPENAI_API_KEY', 'TOOLS_KEY']);
  });

  it("lists the action server's token", async () => {
    const dir = await writeProject({
      ...BASE_PROJECT,
      'endpoints.yml': `${BASE_PROJECT['endpoints.yml']}action_endpoint:
  url: http://127.0.0.1:5055/webhook
  token: \${ACTION_TOKEN}
`,
    });
    const out = await tempDir('switchboard-bundle-');
    const { assistant } = await generateAssistantBundle(dir, undefined, out);
    expect(deployedSecretNames(assistant)).toEqual(['ACTION_TOKEN', 'OPENAI_API_KEY']);
  });
});

describe('importSpecifier', () => {
  it('writes a relative ESM path with the .js extension TypeScript expects', () => {
    expect(importSpecifier('/repo/.switchboard', '/repo/custom/actions.ts')).toBe(
      '../custom/actions.js',
    );
    expect(importSpecifier('/repo', '/repo/custom/hook.mts')).toBe('./custom/hook.mjs');
    expect(importSpecifier('/repo', '/repo/custom/plain.js')).toBe('./custom/plain.js');
  });
});
