import { randomUUID } from 'node:crypto';
import { mkdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { LocalSecretStore } from '../adapters/local/localSecretStore.js';
import { type Assistant, summarize } from '../assistant/index.js';
import {
  type Diagnostic,
  formatDiagnostic,
  projectEnvironment,
  relativeFile,
} from '../config/index.js';
import type { LlmPort } from '../dialogue/index.js';
import {
  COMMANDS_FILE_NAME,
  type Judge,
  junitXml,
  LlmJudge,
  LocalStackTarget,
  loadCommandsFile,
  loadSuite,
  modelMessages,
  type RunningCase,
  resultLines,
  runSuite,
  ScriptedAgentModel,
  ScriptedCommandModel,
  type ScriptedCommands,
  stubbedActions,
  summaryLines,
  TestPathError,
  type TestSuite,
  unknownFixtureSlots,
  unscriptedMessages,
} from '../e2eTests/index.js';
import { hasModelAccess, modelFactory, type ToolChatPort } from '../llm/index.js';
import { type CliIo, UsageError } from './io.js';
import { startPeersFor } from './peers.js';
import { startPrivateStack } from './privateStack.js';
import { loadProjectFromArgs, PROJECT_OPTIONS } from './projectArgs.js';

/** Exit codes of `switchboard test`: every test passed, a test failed, the run could not start. */
export const TEST_EXIT = { passed: 0, failed: 1, usage: 2 } as const;

/** Where Rasa keeps e2e tests, relative to the project. */
const DEFAULT_TESTS = path.join('tests', 'e2e_test_cases.yml');
const DEFAULT_JUNIT = path.join('tests', 'e2e_results.xml');

/**
 * `switchboard test [PATH]`: runs Rasa e2e test cases against the local runtime, in process,
 * each test case a fresh conversation; prints a line per test case and a summary, writes JUnit
 * XML, and exits 0 when all passed, 1 when one failed, 2 when the run could not start.
 */
export async function testCommand(args: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...args],
    options: {
      ...PROJECT_OPTIONS,
      'junit-xml': { type: 'string' },
      commands: { type: 'string' },
      'no-commands': { type: 'boolean', default: false },
      'fail-fast': { type: 'boolean', default: false },
      'demo-peers': { type: 'boolean', default: false },
      peers: { type: 'string', multiple: true },
    },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length > 1)
    throw new UsageError(`one test path at most, got ${positionals.join(' ')}`);
  if (values.commands !== undefined && values['no-commands']) {
    throw new UsageError('--commands and --no-commands exclude each other');
  }
  const assistant = await loadProjectFromArgs(io, values);
  if (!assistant) return TEST_EXIT.usage;
  const target = await testPath(io, assistant, positionals[0]);
  let load: Awaited<ReturnType<typeof loadSuite>>;
  try {
    load = await loadSuite(target);
  } catch (error) {
    if (error instanceof TestPathError) throw new UsageError(error.message);
    throw error;
  }
  const { suite } = load;
  const problems = [...load.errors, ...unknownFixtureSlots(suite, assistant)];
  if (problems.length > 0) return report(io, problems, 'the tests were not run');

  const env = await projectEnvironment(assistant.projectDir, io.env);
  const running: RunningCase = { name: undefined, message: undefined };
  const commands = await commandsFor(assistant.projectDir, values, load.folder);
  if (commands && 'errors' in commands)
    return report(io, commands.errors, 'the tests were not run');
  const unknownAgents = commands?.commands.unknownAgents(Object.keys(assistant.agents)) ?? [];
  if (unknownAgents.length > 0) return report(io, unknownAgents, 'the tests were not run');
  const mode = chooseModel(
    io,
    assistant,
    env,
    suite,
    commands?.commands,
    running,
    values['demo-peers'],
  );
  if ('errors' in mode) return report(io, mode.errors, 'the tests were not run');

  io.err(`loaded assistant: ${summarize(assistant)}`);
  io.err(mode.announce);
  const peers = await startPeersFor(io, 'test', {
    assistant,
    env,
    demo: values['demo-peers'],
    modules: values.peers ?? [],
  });
  if (!peers) return TEST_EXIT.usage;
  const { stack, token } = await startPrivateStack(
    {
      assistant,
      env,
      announce: (line) => io.err(line),
      ...(mode.llm ? { llm: mode.llm } : {}),
      ...(mode.agentModel ? { agentModel: mode.agentModel } : {}),
      wrapActions: (actions) => stubbedActions(actions, suite.stubs, running),
    },
    peers,
  );
  const stopping = new AbortController();
  const started = new Date();
  try {
    const results = await runSuite(suite, {
      target: new LocalStackTarget({
        url: stack.url,
        token,
        runtime: stack.runtime,
        signal: stopping.signal,
      }),
      running,
      context: {
        flowName: (id) => assistant.flows[id]?.name ?? id,
        responseTexts: (name) =>
          (assistant.responses[name] ?? []).flatMap((v) => (v.text !== undefined ? [v.text] : [])),
        ...(mode.judge ? { judge: mode.judge } : {}),
      },
      failFast: values['fail-fast'],
      newSender: () => `e2e-${randomUUID()}`,
      now: () => Date.now(),
      onResult: (result) => {
        for (const line of resultLines(result, io.cwd)) io.out(line);
      },
    });
    const junit = path.resolve(assistant.projectDir, values['junit-xml'] ?? DEFAULT_JUNIT);
    await mkdir(path.dirname(junit), { recursive: true });
    await writeFile(junit, junitXml(results, io.cwd, started));
    for (const line of summaryLines(results, suite.cases.length)) io.out(line);
    io.err(`JUnit XML: ${relativeFile(junit, io.cwd)}`);
    return results.some((r) => r.status === 'failed') ? TEST_EXIT.failed : TEST_EXIT.passed;
  } finally {
    stopping.abort();
    try {
      await stack.stop();
    } finally {
      await peers.close();
    }
  }
}

/**
 * The tests to run: PATH (relative to the project, as every file option is), else Rasa's
 * `tests/e2e_test_cases.yml` (or `tests/`).
 */
async function testPath(
  io: CliIo,
  assistant: Assistant,
  given: string | undefined,
): Promise<string> {
  if (given !== undefined) return path.resolve(assistant.projectDir, given);
  const file = path.join(assistant.projectDir, DEFAULT_TESTS);
  if (await exists(file)) return file;
  const folder = path.dirname(file);
  if (await exists(folder)) return folder;
  throw new UsageError(
    `no tests at ${relativeFile(file, io.cwd)} (Rasa's default); pass the file or folder of your e2e tests`,
  );
}

/** The commands file: --commands, else `e2e_commands.yml` beside the tests, unless --no-commands. */
async function commandsFor(
  projectDir: string,
  values: { commands?: string | undefined; 'no-commands'?: boolean | undefined },
  folder: string,
): Promise<{ commands: ScriptedCommands } | { errors: Diagnostic[] } | undefined> {
  if (values['no-commands']) return undefined;
  const given = values.commands !== undefined;
  const file = given
    ? path.resolve(projectDir, values.commands ?? '')
    : path.join(folder, COMMANDS_FILE_NAME);
  if (!(await exists(file))) {
    if (given) throw new UsageError(`--commands ${values.commands}: no such file`);
    return undefined;
  }
  const loaded = await loadCommandsFile(file);
  return loaded.commands ? { commands: loaded.commands } : { errors: loaded.errors };
}

interface ModelChoice {
  readonly announce: string;
  readonly llm?: LlmPort;
  readonly agentModel?: ToolChatPort;
  readonly judge?: Judge;
}

/**
 * Which model the run uses: the commands file's scripted commands (no model is called), else
 * the project's model when one can be reached, else none at all when every user message is a
 * `/SetSlots`, `/StartFlow` or `/intent` shortcut. Anything else cannot run.
 */
function chooseModel(
  io: CliIo,
  assistant: Assistant,
  env: Readonly<Record<string, string | undefined>>,
  suite: TestSuite,
  commands: ScriptedCommands | undefined,
  running: RunningCase,
  demo: boolean,
): ModelChoice | { errors: Diagnostic[] } {
  const generator = assistant.commandGenerator.llm;
  const access = hasModelAccess(generator, assistant, env);
  if (commands) {
    const errors = unscriptedMessages(suite, commands, io.cwd);
    if (errors.length > 0) return { errors };
    const shown = relativeFile(commands.file, io.cwd);
    const llm = new ScriptedCommandModel(commands, running);
    // The file's `agents:` play the agents; else, with the demo peers and no model, the demo
    // model does (as `run` does).
    if (commands.scriptsAgents) {
      return {
        announce: `scripted commands and sub agents from ${shown}: no model is called, generative assertions are not checked`,
        llm,
        agentModel: new ScriptedAgentModel(commands, running),
      };
    }
    const demoAgents = demo && !access;
    return {
      announce: `scripted commands from ${shown}: no model is called; ${demoAgents ? 'the scripted demo model plays the sub agents' : 'sub agents cannot run'}, generative assertions are not checked`,
      llm,
      ...(demoAgents
        ? {}
        : {
            agentModel: noModel(
              'sub agents need a model, and this run uses the commands file instead of one (script them under "agents:" in it)',
            ),
          }),
    };
  }
  if (demo && !access) {
    return {
      announce:
        'no model: the scripted demo model writes the commands and plays the sub agents (it knows the demo conversation of the README); generative assertions are not checked',
    };
  }
  if (access) {
    const secrets = new LocalSecretStore({
      file: path.join(assistant.projectDir, '.secrets.json'),
      env,
    });
    const judge = new LlmJudge(modelFactory({ assistant, env, secrets })(generator));
    return {
      announce: "using the project's model for commands, sub agents and generative assertions",
      judge,
    };
  }
  const needing = modelMessages(suite);
  const first = needing[0];
  if (first) {
    return {
      errors: [
        {
          ...first.where,
          message: `no model for the command generator and no ${COMMANDS_FILE_NAME} beside the tests: ${needing.length} user message(s) need one, the first being ${JSON.stringify(first.text)}. Set OPENAI_API_KEY (or give the model an api_base or api_key in endpoints.yml), or script the messages in ${COMMANDS_FILE_NAME}`,
        },
      ],
    };
  }
  const none = noModel('no model is configured');
  return {
    announce: 'every user message is a shortcut: no model is needed',
    llm: none,
    agentModel: none,
  };
}

/** A model port that refuses every call, saying why. */
function noModel(reason: string): LlmPort & ToolChatPort {
  const refuse = async (): Promise<never> => {
    throw new Error(`no model in this test run: ${reason}`);
  };
  return { complete: refuse, chat: refuse };
}

function report(io: CliIo, errors: readonly Diagnostic[], outcome: string): number {
  for (const d of errors) io.err(formatDiagnostic(d, io.cwd));
  io.err(`${errors.length} error(s); ${outcome}`);
  return TEST_EXIT.usage;
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}
