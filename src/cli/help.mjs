// The CLI's help, in plain JavaScript: `bin/switchboard.js` answers `--help` from here before it
// loads the TypeScript loader, so help takes little more than Node's own start.

const PROJECT_HELP = `project options:
  --project DIR      the assistant project (default: the current folder)
  --sub-agents DIR   its sub-agent folder (default: sub_agents)
  --config FILE      its configuration (default: config.yml)
  --endpoints FILE   its endpoints (default: endpoints.yml)
  --credentials FILE its messaging channels (default: credentials.yml)
  --domain PATH      its domain file or folder (default: domain.yml or domain/)
  --data PATH        a flows file or folder, repeatable (default: data/)`;

/** Each command's one-line summary and its `--help`. */
export const COMMANDS = {
  init: {
    summary: 'create a new assistant project',
    help: `usage: switchboard init [DIR] [options]

Writes a working assistant into DIR (default: the current folder): config.yml, endpoints.yml,
domain.yml, a flow in data/, a ReAct agent in sub_agents/ on a small MCP server in mcp/, e2e
tests in tests/, .env.example and a package.json (an existing one keeps its fields and gains the
scripts and dependencies it lacks). Then: npm install && npm start.

options:
  --force   overwrite files that are already there`,
  },
  run: {
    summary: 'start the assistant locally',
    help: `usage: switchboard run [options]

Serves the assistant on loopback (the REST channel at /webhooks/rest/webhook), with DynamoDB and
SQS emulated in process, until Ctrl-C.

options:
  --port N        the HTTP port (default: 5005)
  --state DIR     keep conversations in DIR across restarts (default: in memory)
  --demo-peers    also start the demo's MCP servers and A2A agent (SWITCHBOARD_DEMO_PEERS=off skips them)
  --peers FILE    also start the development servers a module exports as start(), repeatable;
                  relative to the project (npm start does this in a project init made)

Without OPENAI_API_KEY (or a model api_base) a scripted model answers: the messages of
tests/e2e_commands.yml when the project has one (run stops when that file has errors), else
the demo conversation.

${PROJECT_HELP}`,
  },
  shell: {
    summary: 'talk to the assistant on the terminal',
    help: `usage: switchboard shell [options]

A conversation with the assistant on the terminal. Bot messages show as they are delivered
(filler messages first), buttons as numbered choices a number picks. /inspect shows the dialogue
stack and the slots, /help what you can type; /exit, Ctrl-D or Ctrl-C leaves (after the turn in
progress).

It starts a local stack of its own, as run does (without OPENAI_API_KEY a scripted model
answers), unless --url names a running one: SWITCHBOARD_REST_TOKEN, from the environment or
the project's .env, is sent when set, and its messages show when the turn ends.

options:
  --url URL       talk to a running assistant (such as npm start's http://127.0.0.1:5005)
  --sender ID     the conversation's sender id (default: a new one)
  --demo-peers    also start the demo's MCP servers and A2A agent
  --peers FILE    also start the development servers a module exports as start(), repeatable;
                  relative to the project

${PROJECT_HELP}`,
  },
  validate: {
    summary: 'check an assistant project',
    help: `usage: switchboard validate [options]

Loads the project and reports every problem as FILE:LINE:COL: message. Exit code 0 when it is
valid, 1 when it is not.

${PROJECT_HELP}`,
  },
  test: {
    summary: 'run conversation tests (e2e)',
    help: `usage: switchboard test [PATH] [options]

Runs Rasa's end-to-end conversation tests in PATH (a file or a folder; default:
tests/e2e_test_cases.yml) against the assistant in process.

options:
  --junit-xml FILE    where the JUnit XML of the results goes (default: tests/e2e_results.xml)
  --fail-fast         stop at the first failing test
  --commands FILE     the scripted answers of the command generator and the sub agents
                      (default: e2e_commands.yml beside the tests, when there is one)
  --no-commands       ask the configured model instead
  --demo-peers        start the demo's MCP servers and A2A agent for the tests
                      (SWITCHBOARD_DEMO_PEERS=off skips them)
  --peers FILE        start the development servers a module exports as start(), repeatable;
                      relative to the project

${PROJECT_HELP}`,
  },
};

export const USAGE = `usage: switchboard <command> [options]

commands:
${Object.entries(COMMANDS)
  .map(([name, entry]) => `  ${name.padEnd(10)} ${entry.summary}`)
  .join('\n')}

Run switchboard <command> --help for a command's options.`;

const HELP_FLAGS = new Set(['--help', '-h', 'help']);

/** The help a command line asks for (`--help`, or `<command> --help`), or undefined. */
export function helpRequested(argv) {
  const [name, ...args] = argv;
  if (name !== undefined && HELP_FLAGS.has(name)) return USAGE;
  const entry = name === undefined ? undefined : COMMANDS[name];
  if (entry && (args.includes('--help') || args.includes('-h'))) return entry.help;
  return undefined;
}
