import { describe, expect, it } from 'vitest';
import {
  BASE_PROJECT,
  errorLines,
  loadProject,
  type ProjectFilesSpec,
} from '../../helpers/project.js';

interface RuleCase {
  readonly rule: string;
  readonly files: ProjectFilesSpec;
  readonly env?: Readonly<Record<string, string>>;
  /** Every error the project must produce, as `file:line:col: message`. */
  readonly errors: readonly string[];
}

const AGENT = 'sub_agents/helper/config.yml';

const reactAgent = (configuration: string, connections = '    - name: tools\n') => `agent:
  name: helper
  description: Helps with anything.
configuration:
${configuration}connections:
  mcp_servers:
${connections}`;

const a2aAgent = (configuration: string) => `agent:
  name: shopper
  protocol: A2A
  description: Shops.
configuration:
${configuration}`;

const endpoints = (servers: string) => `model_groups:
  - id: main
    models:
      - provider: openai
        model: gpt-4.1
mcp_servers:
${servers}`;

/** The base domain with extra slots inserted first, so that they start at line 2. */
const domainWith = (slots: string) =>
  (BASE_PROJECT['domain.yml'] ?? '').replace('slots:\n', `slots:\n${slots}`);

const flows = (steps: string) => `flows:
  greet:
    description: Greet the user.
    steps:
${steps}`;

const cases: RuleCase[] = [
  // --- sub agent files -------------------------------------------------------------------------
  {
    rule: 'timezone must be an IANA name',
    files: { [AGENT]: reactAgent('  timezone: "Mars/Base"\n') },
    errors: [
      `${AGENT}:5:13: configuration.timezone "Mars/Base" is not an IANA time zone (e.g. "Europe/Berlin")`,
    ],
  },
  {
    rule: 'tool_timeout must be greater than 0',
    files: { [AGENT]: reactAgent('  tool_timeout: 0\n') },
    errors: [`${AGENT}:5:17: configuration.tool_timeout must be greater than 0`],
  },
  {
    rule: 'unknown keys are errors with a did-you-mean suggestion',
    files: { [AGENT]: reactAgent('  include_date_tim: true\n') },
    errors: [
      `${AGENT}:5:3: unknown key "include_date_tim" in configuration (did you mean "include_date_time"?); allowed: llm, prompt_template, timeout, max_retries, include_date_time, timezone, enable_filler_messages, tool_timeout, module`,
    ],
  },
  {
    rule: 'include_tools and exclude_tools are exclusive, reported at the second',
    files: {
      [AGENT]: reactAgent(
        '  timeout: 30\n',
        '    - name: tools\n      exclude_tools: [a]\n      include_tools: [b]\n',
      ),
    },
    errors: [
      `${AGENT}:10:7: connections.mcp_servers[0].include_tools cannot be used together with "exclude_tools": list the tools to include or the tools to exclude, not both`,
    ],
  },
  {
    rule: 'a ReAct agent names at least one MCP server',
    files: {
      [AGENT]: reactAgent('  timeout: 30\n', '    []\n').replace(
        'mcp_servers:\n    []',
        'mcp_servers: []',
      ),
    },
    errors: [
      `${AGENT}:7:16: connections.mcp_servers must list at least one MCP server from endpoints.yml`,
    ],
  },
  {
    rule: 'a ReAct agent needs a connections section',
    files: { [AGENT]: 'agent:\n  name: helper\n  description: Helps.\n' },
    errors: [`${AGENT}:1:1: the file is missing the required key "connections"`],
  },
  {
    rule: 'each MCP server of an agent exists in endpoints.yml',
    files: { [AGENT]: reactAgent('  timeout: 30\n', '    - name: tool\n') },
    errors: [
      `${AGENT}:8:13: connections.mcp_servers[0].name "tool" is not an MCP server in endpoints.yml (did you mean "tools"?)`,
    ],
  },
  {
    rule: 'agent.description is required',
    files: { [AGENT]: 'agent:\n  name: helper\nconnections:\n  mcp_servers:\n    - name: tools\n' },
    errors: [`${AGENT}:2:3: agent is missing the required key "description"`],
  },
  {
    rule: 'the protocol is RASA or A2A, in any case',
    files: { [AGENT]: 'agent:\n  name: helper\n  protocol: mcp\n  description: x\n' },
    errors: [`${AGENT}:3:13: agent.protocol "mcp" is not one of: RASA, A2A`],
  },
  {
    rule: 'the llm model group exists',
    files: { [AGENT]: reactAgent('  llm:\n    model_group: mian\n') },
    errors: [
      `${AGENT}:6:18: configuration.llm.model_group "mian" is not a model group in endpoints.yml (did you mean "main"?)`,
    ],
  },
  {
    rule: 'a prompt template exists',
    files: { [AGENT]: reactAgent('  prompt_template: prompts/missing.jinja2\n') },
    errors: [
      `${AGENT}:5:20: configuration.prompt_template: template file prompts/missing.jinja2 does not exist`,
    ],
  },
  {
    rule: 'a prompt template parses, and the error points into the template',
    files: {
      [AGENT]: reactAgent('  prompt_template: prompts/agent.jinja2\n'),
      'prompts/agent.jinja2': 'You help.\n{% if slots.x %}\n{{ description }\n',
    },
    errors: ['prompts/agent.jinja2:3:16: template syntax: expected variable end'],
  },
  {
    rule: 'module resolves to an exported class',
    files: {
      [AGENT]: reactAgent('  module: custom.agents.HelperAgent\n'),
      'custom/agents.ts': 'export class OtherAgent {}\n',
    },
    errors: [
      `${AGENT}:5:11: configuration.module "custom.agents.HelperAgent": custom/agents.ts has no export named HelperAgent (it exports OtherAgent)`,
    ],
  },
  {
    rule: 'module must be a class, not a function',
    files: {
      [AGENT]: reactAgent('  module: custom.agents.helper\n'),
      'custom/agents.ts': 'export function helper() {}\n',
    },
    errors: [
      `${AGENT}:5:11: configuration.module "custom.agents.helper": the export helper is not a class`,
    ],
  },
  {
    rule: 'module must point at an existing file',
    files: { [AGENT]: reactAgent('  module: custom.nowhere.Agent\n') },
    errors: [
      `${AGENT}:5:11: configuration.module "custom.nowhere.Agent": there is no module custom/nowhere.ts (or .js) in the project`,
    ],
  },
  {
    rule: 'agent names are unique',
    files: { 'sub_agents/helper2/config.yml': reactAgent('  timeout: 30\n') },
    errors: [
      'sub_agents/helper2/config.yml:2:9: agent name "helper" is already used by sub_agents/helper/config.yml:2:9; agent names must be unique',
    ],
  },
  {
    rule: 'agent names do not clash with flow ids',
    files: {
      'data/flows.yml': `${flows('      - collect: name\n')}  helper:\n    description: x\n    steps:\n      - action: utter_done\n`,
    },
    errors: [
      `${AGENT}:2:9: agent name "helper" clashes with the flow defined at data/flows.yml:6:3; rename one of them`,
    ],
  },
  // --- A2A agents ------------------------------------------------------------------------------
  {
    rule: 'an A2A agent needs agent_card',
    files: { 'sub_agents/shopper/config.yml': a2aAgent('  max_polling_time: 30\n') },
    errors: [
      'sub_agents/shopper/config.yml:6:3: configuration is missing the required key "agent_card"',
    ],
  },
  {
    rule: 'an agent card file must exist',
    files: { 'sub_agents/shopper/config.yml': a2aAgent('  agent_card: ./cards/none.json\n') },
    errors: [
      'sub_agents/shopper/config.yml:6:15: configuration.agent_card: agent card file ./cards/none.json does not exist',
    ],
  },
  {
    rule: 'an agent card file must parse',
    files: {
      'sub_agents/shopper/config.yml': a2aAgent('  agent_card: card.json\n'),
      'card.json': '{ "name": "Shopper", ',
    },
    errors: [
      expect.stringMatching(
        /^sub_agents\/shopper\/config\.yml:6:15: configuration\.agent_card: agent card card\.json is not valid JSON/,
      ) as unknown as string,
    ],
  },
  {
    rule: 'an agent card needs a name and an endpoint',
    files: {
      'sub_agents/shopper/config.yml': a2aAgent('  agent_card: card.json\n'),
      'card.json': '{ "name": "Shopper" }',
    },
    errors: [
      'sub_agents/shopper/config.yml:6:15: configuration.agent_card: agent card card.json has neither "url" (A2A 0.3) nor "supportedInterfaces" (A2A 1.0)',
    ],
  },
  {
    rule: 'an agent card URL must be http(s)',
    files: {
      'sub_agents/shopper/config.yml': a2aAgent('  agent_card: ftp://example.com/card.json\n'),
    },
    errors: [
      'sub_agents/shopper/config.yml:6:15: configuration.agent_card "ftp://example.com/card.json" must be an http(s) URL or a file in the project',
    ],
  },
  {
    rule: 'task_timeout is a number of seconds greater than 0',
    files: {
      'sub_agents/shopper/config.yml': a2aAgent(
        '  agent_card: https://agents.example.com/card.json\n  task_timeout: 0\n',
      ),
      'sub_agents/seller/config.yml': a2aAgent(
        '  agent_card: https://agents.example.com/card.json\n  task_timeout: ten minutes\n',
      ).replace('name: shopper', 'name: seller'),
    },
    errors: [
      'sub_agents/seller/config.yml:7:17: configuration.task_timeout must be a number (got string "ten minutes")',
      'sub_agents/shopper/config.yml:7:17: configuration.task_timeout must be greater than 0',
    ],
  },
  {
    rule: 'pre_call_hook resolves to an exported function',
    files: {
      'sub_agents/shopper/config.yml': a2aAgent(
        '  agent_card: https://agents.example.com/.well-known/agent-card.json\n  pre_call_hook: custom.hooks.VALUE\n',
      ),
      'custom/hooks.ts': 'export const VALUE = 42;\n',
    },
    errors: [
      'sub_agents/shopper/config.yml:7:18: configuration.pre_call_hook "custom.hooks.VALUE": the export VALUE is not a function',
    ],
  },
  {
    rule: 'A2A credentials must be environment references',
    files: {
      'sub_agents/shopper/config.yml': a2aAgent(
        '  agent_card: https://agents.example.com/card.json\n  auth:\n    token: abc123\n',
      ),
    },
    errors: [
      'sub_agents/shopper/config.yml:8:12: configuration.auth.token must be an environment variable reference such as "${MY_SECRET}", so the secret is never written in the file',
    ],
  },
  // --- endpoints.yml ---------------------------------------------------------------------------
  {
    rule: 'MCP server names are unique',
    files: {
      'endpoints.yml': endpoints(
        '  - name: tools\n    url: http://127.0.0.1:9000/mcp\n  - name: tools\n    url: http://127.0.0.1:9001/mcp\n',
      ),
    },
    errors: [
      'endpoints.yml:9:11: MCP server "tools" is defined twice (first at endpoints.yml:7:11); keep one definition',
    ],
  },
  {
    rule: 'api_key must be a ${VAR} reference',
    files: {
      'endpoints.yml': endpoints(
        '  - name: tools\n    url: https://x.example.com/mcp\n    api_key: sk-123\n',
      ),
    },
    errors: [
      'endpoints.yml:9:14: mcp_servers[0].api_key must be an environment variable reference such as "${MY_SECRET}", so the secret is never written in the file',
    ],
  },
  {
    rule: 'a credential is a whole ${VAR} reference, not text around one',
    files: {
      'endpoints.yml': endpoints(
        '  - name: tools\n    url: https://x.example.com/mcp\n    api_key: "Bearer ${TOOLS_KEY}"\n',
      ),
    },
    env: { TOOLS_KEY: 'sk-from-env' },
    errors: [
      'endpoints.yml:9:14: mcp_servers[0].api_key must be an environment variable reference such as "${MY_SECRET}", so the secret is never written in the file',
    ],
  },
  {
    rule: 'a credential is a ${VAR} reference, not a list holding one',
    files: {
      'endpoints.yml': endpoints(
        '  - name: tools\n    url: https://x.example.com/mcp\n    api_key: ["${TOOLS_KEY}"]\n',
      ),
    },
    env: { TOOLS_KEY: 'sk-from-env' },
    errors: [
      'endpoints.yml:9:14: mcp_servers[0].api_key must be an environment variable reference such as "${MY_SECRET}", so the secret is never written in the file',
    ],
  },
  {
    rule: 'token must be a ${VAR} reference',
    files: {
      'endpoints.yml': endpoints(
        '  - name: tools\n    url: https://x.example.com/mcp\n    token: "abc"\n',
      ),
    },
    errors: [
      'endpoints.yml:9:12: mcp_servers[0].token must be an environment variable reference such as "${MY_SECRET}", so the secret is never written in the file',
    ],
  },
  {
    rule: 'client_secret must be a ${VAR} reference',
    files: {
      'endpoints.yml': endpoints(
        '  - name: tools\n    url: https://x.example.com/mcp\n    oauth:\n      client_id: me\n      client_secret: hunter2\n      token_url: https://auth.example.com/token\n',
      ),
    },
    errors: [
      'endpoints.yml:11:22: mcp_servers[0].oauth.client_secret must be an environment variable reference such as "${MY_SECRET}", so the secret is never written in the file',
    ],
  },
  {
    rule: 'OAuth requires client_id, client_secret and token_url',
    files: {
      'endpoints.yml': endpoints(
        '  - name: tools\n    url: https://x.example.com/mcp\n    oauth:\n      client_id: me\n      client_secret: ${SECRET}\n',
      ),
    },
    env: { SECRET: 's' },
    errors: ['endpoints.yml:10:7: mcp_servers[0].oauth is missing the required key "token_url"'],
  },
  {
    rule: 'a missing environment variable is named',
    files: {
      'endpoints.yml': endpoints(
        '  - name: tools\n    url: https://x.example.com/mcp\n    api_key: ${TOOLS_KEY}\n',
      ),
    },
    errors: [
      "endpoints.yml:9:14: mcp_servers[0].api_key uses environment variable TOOLS_KEY, which is not set (set it in the environment or in the project's .env file)",
    ],
  },
  {
    rule: 'the server type is http or https',
    files: {
      'endpoints.yml': endpoints(
        '  - name: tools\n    url: http://x.example.com/mcp\n    type: stdio\n',
      ),
    },
    errors: ['endpoints.yml:9:11: mcp_servers[0].type "stdio" is not one of: http, https'],
  },
  {
    rule: 'the server type matches the URL',
    files: {
      'endpoints.yml': endpoints(
        '  - name: tools\n    url: http://x.example.com/mcp\n    type: https\n',
      ),
    },
    errors: ['endpoints.yml:9:11: mcp_servers[0].type is https but the url uses http'],
  },
  {
    rule: 'server name and url are not empty',
    files: { 'endpoints.yml': endpoints('  - name: ""\n    url: ""\n') },
    errors: [
      'endpoints.yml:7:11: mcp_servers[0].name must not be empty',
      'endpoints.yml:8:10: mcp_servers[0].url must not be empty',
      `${AGENT}:6:13: connections.mcp_servers[0].name "tools" is not an MCP server in endpoints.yml`,
    ],
  },
  {
    rule: 'a pre_call_hook and the built-in conversation_secret are exclusive',
    files: {
      'endpoints.yml': endpoints(
        '  - name: tools\n    url: https://x.example.com/mcp\n    pre_call_hook: custom.hooks.meta\n    conversation_secret:\n      secret_id: customers/{sender_id}\n      metadata:\n        x-customer-id: id\n',
      ),
      'custom/hooks.ts': 'export function meta() {\n  return {};\n}\n',
    },
    errors: [
      'endpoints.yml:10:5: mcp_servers[0].conversation_secret cannot be used together with "pre_call_hook": a server has one call-time credential hook: a pre_call_hook of yours or the built-in conversation_secret',
    ],
  },
  {
    rule: 'a whole read-only server and a list of its read-only tools are exclusive',
    files: {
      'endpoints.yml': endpoints(
        '  - name: tools\n    url: https://x.example.com/mcp\n    read_only: true\n    read_only_tools: [search]\n',
      ),
    },
    errors: [
      'endpoints.yml:10:5: mcp_servers[0].read_only_tools cannot be used together with "read_only": declare the whole server read-only or list its read-only tools, not both',
    ],
  },
  {
    rule: 'read-only settings are a boolean and a list of tool names',
    files: {
      'endpoints.yml': endpoints(
        '  - name: tools\n    url: https://x.example.com/mcp\n    read_only_tools: search\n    trust_read_only_hints: yes\n',
      ),
    },
    errors: [
      'endpoints.yml:9:22: mcp_servers[0].read_only_tools must be a list (got string "search")',
      'endpoints.yml:10:28: mcp_servers[0].trust_read_only_hints must be true or false (got string "yes")',
    ],
  },
  {
    rule: 'a conversation_secret names its secret per conversation and maps at least one key',
    files: {
      'endpoints.yml': endpoints(
        '  - name: tools\n    url: https://x.example.com/mcp\n    conversation_secret:\n      secret_id: customers/shared\n      metadata: {}\n',
      ),
    },
    errors: [
      'endpoints.yml:10:18: mcp_servers[0].conversation_secret.secret_id must contain the placeholder {sender_id}, so that each conversation has its own secret',
      'endpoints.yml:11:17: mcp_servers[0].conversation_secret.metadata must map at least one _meta key',
    ],
  },
  {
    rule: 'two authentication methods are exclusive',
    files: {
      'endpoints.yml': endpoints(
        '  - name: tools\n    url: https://x.example.com/mcp\n    api_key: ${K}\n    token: ${T}\n',
      ),
    },
    env: { K: 'k', T: 't' },
    errors: [
      'endpoints.yml:10:5: mcp_servers[0].token cannot be used together with "api_key": choose one authentication method',
    ],
  },
  {
    rule: 'header_name needs api_key',
    files: {
      'endpoints.yml': endpoints(
        '  - name: tools\n    url: https://x.example.com/mcp\n    header_name: X-Key\n',
      ),
    },
    errors: ['endpoints.yml:9:5: mcp_servers[0].header_name applies only together with api_key'],
  },
  {
    rule: 'meta_map.from_slots names existing slots',
    files: {
      'endpoints.yml': endpoints(
        '  - name: tools\n    url: https://x.example.com/mcp\n    meta_map:\n      from_slots:\n        - slot: nam\n          param: user\n',
      ),
    },
    errors: [
      'endpoints.yml:11:17: mcp_servers[0].meta_map.from_slots[0].slot names slot "nam", which the domain does not define (did you mean "name"?)',
    ],
  },
  {
    rule: 'pre_call_hook on an MCP server resolves',
    files: {
      'endpoints.yml': endpoints(
        '  - name: tools\n    url: https://x.example.com/mcp\n    pre_call_hook: custom.creds.resolve\n',
      ),
    },
    errors: [
      'endpoints.yml:9:20: mcp_servers[0].pre_call_hook "custom.creds.resolve": there is no module custom/creds.ts (or .js) in the project',
    ],
  },
  {
    rule: 'unknown top-level keys suggest the right one',
    files: {
      'endpoints.yml': endpoints('  - name: tools\n    url: http://127.0.0.1:9000/mcp\n').replace(
        'mcp_servers:',
        'mcp_server:',
      ),
    },
    errors: [
      'endpoints.yml:6:1: unknown key "mcp_server" at the top level (did you mean "mcp_servers"?); allowed: action_endpoint, mcp_servers, model_groups, a2a_server, nlg, vector_store',
      `${AGENT}:6:13: connections.mcp_servers[0].name "tools" is not an MCP server in endpoints.yml`,
    ],
  },
  {
    rule: 'the A2A server needs a description, and its secret is a ${VAR} reference',
    files: {
      'endpoints.yml': `${BASE_PROJECT['endpoints.yml']}a2a_server:\n  auth:\n    secret: s3cret\n`,
    },
    errors: [
      'endpoints.yml:11:3: a2a_server is missing the required key "description"',
      'endpoints.yml:12:13: a2a_server.auth.secret must be an environment variable reference such as "${MY_SECRET}", so the secret is never written in the file',
    ],
  },
  {
    rule: 'the A2A server checks callers with something',
    files: {
      'endpoints.yml': `${BASE_PROJECT['endpoints.yml']}a2a_server:
  description: Books test drives.
  auth:
    issuer: https://issuer.example
`,
    },
    errors: [
      'endpoints.yml:13:5: a2a_server.auth needs api_key, secret or jwks_url: something to check callers with',
    ],
  },
  {
    rule: 'the A2A server lists each skill once',
    files: {
      'endpoints.yml': `${BASE_PROJECT['endpoints.yml']}a2a_server:
  description: Books test drives.
  skills:
    - id: book
      description: Books a test drive.
    - id: book
      description: Books it again.
`,
    },
    errors: ['endpoints.yml:15:11: a2a_server.skills[1].id "book" is listed twice'],
  },
  {
    rule: 'the A2A server static card is a JSON file of the project with a name',
    files: {
      'endpoints.yml': `${BASE_PROJECT['endpoints.yml']}a2a_server:
  description: Books test drives.
  agent_card_path: card.json
`,
      'card.json': '{"description": "no name"}',
    },
    errors: [
      'endpoints.yml:12:20: a2a_server.agent_card_path: agent card card.json "name" is missing',
    ],
  },
  {
    rule: 'the command generator model group exists',
    files: {
      'config.yml':
        'pipeline:\n  - name: CompactLLMCommandGenerator\n    llm:\n      model_group: gpt\n',
    },
    errors: [
      'config.yml:4:20: pipeline[0].llm.model_group "gpt" is not a model group in endpoints.yml',
    ],
  },
  // --- domain ----------------------------------------------------------------------------------
  {
    rule: 'slot types are the supported ones',
    files: { 'domain.yml': BASE_PROJECT['domain.yml']?.replace('type: text', 'type: date') },
    errors: [
      'domain.yml:3:11: slots.name.type "date" is not one of: text, bool, float, categorical, list, any',
    ],
  },
  {
    rule: 'categorical slots need values',
    files: { 'domain.yml': domainWith('  size:\n    type: categorical\n') },
    errors: ['domain.yml:2:3: slot "size" is categorical and needs a non-empty "values" list'],
  },
  {
    rule: 'initial_value fits the slot type',
    files: {
      'domain.yml': domainWith(
        '  size:\n    type: categorical\n    values: [s, m]\n    initial_value: xl\n',
      ),
    },
    errors: [
      'domain.yml:5:20: slots.size.initial_value "xl": is not one of the slot\'s values: s, m',
    ],
  },
  {
    rule: 'a slot is defined once across domain files',
    files: {
      'domain.yml': undefined,
      'domain/a.yml': 'slots:\n  name:\n    type: text\n  confirmed:\n    type: bool\n',
      'domain/b.yml':
        'slots:\n  name:\n    type: text\nresponses:\n  utter_ask_name:\n    - text: Name?\n  utter_done:\n    - text: Done.\n',
    },
    errors: [
      'domain/b.yml:2:3: slot "name" is defined twice (first at domain/a.yml:2:3); keep one definition',
    ],
  },
  {
    rule: 'response conditions name existing slots',
    files: {
      'domain.yml': `${BASE_PROJECT['domain.yml']}  utter_hi:\n    - condition: slots.nme is not null\n      text: Hi {name}\n    - text: Hi\n`,
    },
    errors: [
      'domain.yml:12:24: responses.utter_hi[0].condition reads slot "nme", which the domain does not define (did you mean "name"?)',
    ],
  },
  // --- flows -----------------------------------------------------------------------------------
  {
    rule: 'collect names an existing slot',
    files: { 'data/flows.yml': flows('      - collect: nme\n') },
    errors: [
      'data/flows.yml:5:18: flows.greet.steps[0].collect names slot "nme", which the domain does not define (did you mean "name"?)',
    ],
  },
  {
    rule: 'collect needs a question',
    files: { 'data/flows.yml': flows('      - collect: confirmed\n') },
    errors: [
      'data/flows.yml:5:18: collecting "confirmed" needs a response utter_ask_confirmed in the domain, an action action_ask_confirmed, or an "utter" key naming the question',
    ],
  },
  {
    rule: 'set_slots names existing slots',
    files: { 'data/flows.yml': flows('      - set_slots:\n          - confirmd: true\n') },
    errors: [
      'data/flows.yml:6:13: flows.greet.steps[0].set_slots[0].confirmd names slot "confirmd", which the domain does not define (did you mean "confirmed"?)',
    ],
  },
  {
    rule: 'set_slots values fit the slot type',
    files: { 'data/flows.yml': flows('      - set_slots:\n          - confirmed: maybe\n') },
    errors: [
      'data/flows.yml:6:24: flows.greet.steps[0].set_slots[0].confirmed "maybe": a bool slot takes true or false',
    ],
  },
  {
    rule: 'actions that are responses exist',
    files: { 'data/flows.yml': flows('      - action: utter_bye\n') },
    errors: [
      'data/flows.yml:5:17: flows.greet.steps[0].action names response "utter_bye", which the domain does not define',
    ],
  },
  {
    rule: 'other actions are built-in or exported by custom/actions.ts',
    files: {
      'data/flows.yml': flows(
        '      - action: action_check_fraud\n      - action: action_listen\n',
      ),
      'custom/actions.ts': 'export function action_check_fraude() {\n  return {};\n}\n',
    },
    errors: [
      'data/flows.yml:5:17: flows.greet.steps[0].action "action_check_fraud" is neither a response, a built-in action, nor a function exported by custom/actions.ts (did you mean "action_check_fraude"?); to run it on a Rasa action server, list it in the domain\'s actions and set action_endpoint.url',
    ],
  },
  {
    rule: 'custom/actions.ts must load',
    files: { 'custom/actions.ts': 'export const broken = ;\n' },
    errors: [
      expect.stringMatching(
        /^custom\/actions\.ts:1:1: custom\/actions\.ts fails to load: /,
      ) as unknown as string,
    ],
  },
  {
    rule: 'a call target is a flow or an agent',
    files: { 'data/flows.yml': flows('      - call: helpr\n') },
    errors: [
      'data/flows.yml:5:15: flows.greet.steps[0].call "helpr" is neither a flow nor a sub agent (did you mean "helper"?) (to call an MCP tool, add mcp_server)',
    ],
  },
  {
    rule: 'exit_if names existing slots',
    files: {
      'data/flows.yml': flows(
        '      - call: helper\n        exit_if:\n          - slots.nam is not null\n',
      ),
    },
    errors: [
      'data/flows.yml:7:19: flows.greet.steps[0].exit_if[0] reads slot "nam", which the domain does not define (did you mean "name"?)',
    ],
  },
  {
    rule: 'exit_if applies only to ReAct agents',
    files: {
      'data/flows.yml': `${flows('      - call: other\n        exit_if:\n          - slots.name is not null\n')}  other:\n    description: x\n    steps:\n      - action: utter_done\n`,
    },
    errors: ['data/flows.yml:6:9: exit_if applies only to ReAct sub agents; "other" is a flow'],
  },
  {
    rule: 'conditions parse, with the column of the problem',
    files: {
      'data/flows.yml': flows(
        '      - collect: name\n        next:\n          - if: slots.name == \n            then: END\n          - else: END\n',
      ),
    },
    errors: [
      'data/flows.yml:7:30: flows.greet.steps[0].next[0].if: cannot parse condition "slots.name ==": unexpected end of condition at column 14',
    ],
  },
  {
    rule: 'next targets exist',
    files: {
      'data/flows.yml': flows(
        '      - collect: name\n        next: finish\n      - id: finsh\n        action: utter_done\n',
      ),
    },
    errors: [
      'data/flows.yml:6:15: flows.greet.steps[0].next "finish" is not a step id in flow "greet" (did you mean "finsh"?) (use END to finish the flow)',
    ],
  },
  {
    rule: 'a step does one thing, reported at the second key',
    files: { 'data/flows.yml': flows('      - collect: name\n        action: utter_done\n') },
    errors: [
      'data/flows.yml:6:9: flows.greet.steps[0].action cannot be used together with "collect": a step does exactly one thing; split it into two steps',
    ],
  },
  {
    rule: 'an MCP call names an existing server and slots',
    files: {
      'data/flows.yml': flows(
        '      - call: lookup\n        mcp_server: tool\n        mapping:\n          input:\n            - param: q\n              slot: nam\n          output:\n            - slot: confirmed\n              value: result.structuredContent.ok\n',
      ),
    },
    errors: [
      'data/flows.yml:6:21: flows.greet.steps[0].mcp_server "tool" is not an MCP server in endpoints.yml (did you mean "tools"?)',
      'data/flows.yml:10:21: flows.greet.steps[0].mapping.input[0].slot names slot "nam", which the domain does not define (did you mean "name"?)',
    ],
  },
  {
    rule: 'a link goes to an existing flow and ends the list',
    files: { 'data/flows.yml': flows('      - link: goodbye\n      - action: utter_done\n') },
    errors: [
      'data/flows.yml:5:15: flows.greet.steps[0].link "goodbye" is not a flow',
      'data/flows.yml:5:15: a link step ends its flow, so it must be the last step of its list',
    ],
  },
  {
    rule: 'flows do not call each other in a loop',
    files: {
      'data/flows.yml': `${flows('      - call: other\n')}  other:\n    description: x\n    steps:\n      - call: greet\n`,
    },
    errors: [
      'data/flows.yml:9:15: flows.other.steps[0].call "greet" makes flows call each other in a loop (greet → other → greet), which would never end',
    ],
  },
  {
    rule: 'YAML syntax errors are located',
    files: { 'data/flows.yml': 'flows:\n  greet:\n    steps: [\n' },
    errors: [
      expect.stringMatching(/^data\/flows\.yml:\d+:\d+: YAML syntax: /) as unknown as string,
    ],
  },
];

describe('configuration rules', () => {
  it.each(cases)('$rule', async ({ files, env, errors }) => {
    const { dir, result } = await loadProject(files, env);
    expect(result.ok).toBe(false);
    expect(errorLines(dir, result)).toEqual(errors);
  });

  it('loads the base project used by the rule cases', async () => {
    const { dir, result } = await loadProject();
    expect(errorLines(dir, result)).toEqual([]);
    expect(result.ok).toBe(true);
  });
});
