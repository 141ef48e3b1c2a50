import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type Environment, type LoadResult, loadAssistant } from '../../src/config/index.js';
import { tempDir } from './tempDirs.js';

/** Files of a project by relative path; `undefined` removes a file of the base project. */
export type ProjectFilesSpec = Readonly<Record<string, string | undefined>>;

/** A small valid project that the rule tests change one file at a time. */
/** A domain and one flow that asks for a name and greets by it (triggered by `/greet` too). */
export const GREET_FILES: ProjectFilesSpec = {
  'domain.yml': `intents:
  - greet
slots:
  name:
    type: text
responses:
  utter_ask_name:
    - text: What is your name?
  utter_hello:
    - text: Hello, {name}!
`,
  'data/flows.yml': `flows:
  greet:
    description: Greet the user by name.
    nlu_trigger:
      - intent: greet
    steps:
      - collect: name
      - action: utter_hello
`,
};

export const BASE_PROJECT: ProjectFilesSpec = {
  'config.yml': `pipeline:
  - name: CompactLLMCommandGenerator
    llm:
      model_group: main
`,
  'endpoints.yml': `model_groups:
  - id: main
    models:
      - provider: openai
        model: gpt-4.1
mcp_servers:
  - name: tools
    url: http://127.0.0.1:9000/mcp
    type: http
`,
  'domain.yml': `slots:
  name:
    type: text
  confirmed:
    type: bool
responses:
  utter_ask_name:
    - text: What is your name?
  utter_done:
    - text: Done, {name}.
`,
  'data/flows.yml': `flows:
  greet:
    description: Greet the user.
    steps:
      - collect: name
      - action: utter_done
`,
  'sub_agents/helper/config.yml': `agent:
  name: helper
  description: Helps with anything.
connections:
  mcp_servers:
    - name: tools
`,
};

/** Writes a project into a temporary directory (removed after the test file) and returns it. */
export async function writeProject(files: ProjectFilesSpec): Promise<string> {
  const dir = await tempDir('switchboard-project-');
  for (const [name, content] of Object.entries(files)) {
    if (content === undefined) continue;
    const file = path.join(dir, name);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, content);
  }
  return dir;
}

/** Loads the base project with `changes` applied. */
export async function loadProject(
  changes: ProjectFilesSpec = {},
  env: Environment = {},
): Promise<{ dir: string; result: LoadResult }> {
  const dir = await writeProject({ ...BASE_PROJECT, ...changes });
  return { dir, result: await loadAssistant({ projectDir: dir, env }) };
}

/** The errors of a load as `file:line:col: message`, file relative to the project. */
export function errorLines(dir: string, result: LoadResult): string[] {
  if (result.ok) return [];
  return result.errors.map((e) => `${path.relative(dir, e.file)}:${e.line}:${e.col}: ${e.message}`);
}

/** A project with one flow that asks for a name and greets; `counter` is a free number slot. */
export const GREETING_PROJECT: ProjectFilesSpec = {
  'domain.yml': `slots:
  counter:
    type: float
  name:
    type: text
responses:
  utter_ask_name:
    - text: Your name?
  utter_hello:
    - text: Hello {name}!
`,
  'data/flows.yml': `flows:
  greet:
    description: Greets.
    steps:
      - collect: name
      - action: utter_hello
`,
};

/** A project whose one flow calls the ReAct agent `researcher` (its MCP server is never reached). */
export const RESEARCHER_PROJECT: ProjectFilesSpec = {
  'endpoints.yml': 'mcp_servers:\n  - name: tools\n    url: http://127.0.0.1:9000/mcp\n',
  'domain.yml': 'slots: {}\nresponses:\n  utter_ok:\n    - text: OK.\n',
  'data/flows.yml':
    'flows:\n  research:\n    description: Research.\n    steps:\n      - call: researcher\n',
  'sub_agents/researcher/config.yml':
    'agent:\n  name: researcher\n  description: Researches.\nconnections:\n  mcp_servers:\n    - name: tools\n',
};
