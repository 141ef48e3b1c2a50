import { mkdir, rename, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../../src/cli/io.js';
import { main } from '../../../src/cli/main.js';
import { loadAssistant } from '../../../src/config/index.js';
import { BASE_PROJECT, errorLines, loadProject, writeProject } from '../../helpers/project.js';

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
    // Relative to the project, as --sub-agents is, wherever the command runs.
    const io = captureIo(path.dirname(dir));
    const argv = [
      'validate',
      '--project',
      path.basename(dir),
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
      'endpoints.yml': `tracing:\n  - type: langfuse\n${BASE_PROJECT['endpoints.yml']}`,
      'data/a.yml': 'nlu: []\n',
      'data/b.yml': 'stories: []\n',
      'data/c.yml': 'rules: []\n',
      'data/d.yml': 'version: "3.1"\n',
    });
    const runs = await Promise.all(
      [1, 2, 3, 4, 5].map(async () => {
        const io = captureIo(dir);
        await main(['validate'], io);
        return io.stderr;
      }),
    );
    expect(new Set(runs.map((lines) => lines.join('\n'))).size).toBe(1);
    expect(runs[0]).toEqual([
      'note: config.yml: not used by Switchboard, ignored: recipe, language',
      "note: data/a.yml:1:1: Switchboard runs CALM flows, not Rasa's NLU: nlu, stories, rules data are not used (data/a.yml, data/b.yml, data/c.yml)",
      'note: endpoints.yml:1:1: tracing: not used: the deployed functions trace with AWS X-Ray when deployed with -c tracing=true',
    ]);
  });

  it('accepts the endpoint keys Rasa accepts, and says why each does not apply', async () => {
    const { dir, result } = await loadProject({
      'endpoints.yml': `tracing:
  - type: langfuse
metrics:
  type: statsd
tracker_store:
  type: SQL
lock_store:
  type: redis
event_broker:
  type: kafka
vector_store:
  type: qdrant
${BASE_PROJECT['endpoints.yml']}`,
    });
    expect(errorLines(dir, result)).toEqual([]);
    expect(result.notes.map((n) => `${n.line}: ${n.message.split(':')[0]}`)).toEqual([
      '1: tracing',
      '3: metrics',
      '5: tracker_store',
      '7: lock_store',
      '9: event_broker',
      '11: vector_store',
    ]);
  });

  it("reads Rasa's deprecated LLM setting names (request_timeout, model_name, type…) as the current ones, with a note", async () => {
    const { dir, result } = await loadProject({
      'config.yml': `pipeline:
  - name: CompactLLMCommandGenerator
    llm:
      type: openai
      model_name: gpt-4
      request_timeout: 7
      openai_api_base: http://127.0.0.1:8000/v1
      openai_api_version: "2024-02-01"
`,
      'endpoints.yml': `model_groups:
  - id: main
    models:
      - provider: openai
        model: gpt-4.1
        timeout: 5
        request_timeout: 9
nlg:
  type: rephrase
  llm:
    model: gpt-4.1-mini
    request_timeout: 4
mcp_servers:
  - name: tools
    url: http://127.0.0.1:9000/mcp
`,
      'sub_agents/helper/config.yml': `agent:
  name: helper
  description: Helps with anything.
configuration:
  llm:
    model_group: main
    request_timeout: 20
connections:
  mcp_servers:
    - name: tools
`,
    });
    expect(errorLines(dir, result)).toEqual([]);
    if (!result.ok) return;
    const { assistant } = result;
    expect(assistant.commandGenerator.llm).toEqual({
      provider: 'openai',
      model: 'gpt-4',
      timeout: 7,
      api_base: 'http://127.0.0.1:8000/v1',
      api_version: '2024-02-01',
    });
    expect(assistant.modelGroups.main?.models[0]?.timeout).toBe(9);
    expect(assistant.rephraser?.llm).toEqual({ model: 'gpt-4.1-mini', timeout: 4 });
    const helper = assistant.agents.helper;
    expect(helper?.protocol === 'RASA' && helper.configuration.llm).toEqual({
      model_group: 'main',
      timeout: 20,
    });
    const notes = result.notes.map((n) => `${path.relative(dir, n.file)}:${n.line}: ${n.message}`);
    expect(notes).toEqual([
      'config.yml:4: pipeline[0].llm.type: Rasa\'s deprecated name of "provider", read as provider; write "provider" instead',
      'config.yml:5: pipeline[0].llm.model_name: Rasa\'s deprecated name of "model", read as model; write "model" instead',
      'config.yml:6: pipeline[0].llm.request_timeout: Rasa\'s deprecated name of "timeout", read as timeout; write "timeout" instead',
      'config.yml:7: pipeline[0].llm.openai_api_base: Rasa\'s deprecated name of "api_base", read as api_base; write "api_base" instead',
      'config.yml:8: pipeline[0].llm.openai_api_version: Rasa\'s deprecated name of "api_version", read as api_version; write "api_version" instead',
      'endpoints.yml:7: model_groups[0].models[0].request_timeout: Rasa\'s deprecated name of "timeout", read as timeout (its value wins over the "timeout" beside it, as in Rasa); write "timeout" instead',
      'endpoints.yml:12: nlg.llm.request_timeout: Rasa\'s deprecated name of "timeout", read as timeout; write "timeout" instead',
      'sub_agents/helper/config.yml:7: configuration.llm.request_timeout: Rasa\'s deprecated name of "timeout", read as timeout; write "timeout" instead',
    ]);
    expect(result.ignored.map((i) => i.key)).not.toContain('request_timeout');
  });

  it('still refuses an endpoint key Rasa does not have', async () => {
    const { dir, result } = await loadProject({
      'endpoints.yml': `tracingg: []\n${BASE_PROJECT['endpoints.yml']}`,
    });
    expect(errorLines(dir, result)[0]).toMatch(/^endpoints.yml:1:1: unknown key "tracingg"/);
  });

  it('asks for a slot with action_ask_<slot> when the project has no utter_ask_<slot>', async () => {
    const { dir, result } = await loadProject({
      'domain.yml': (BASE_PROJECT['domain.yml'] ?? '').replace(
        '  utter_ask_name:\n    - text: What is your name?\n',
        '',
      ),
      'custom/actions.ts': 'export function action_ask_name() {\n  return {};\n}\n',
    });
    expect(errorLines(dir, result)).toEqual([]);
  });

  it('accepts action_ask_<slot> served by the action server when the domain lists it', async () => {
    const { dir, result } = await loadProject({
      'endpoints.yml': `action_endpoint:\n  url: http://127.0.0.1:5055/webhook\n${BASE_PROJECT['endpoints.yml']}`,
      'domain.yml': `actions:\n  - action_ask_name\n${(BASE_PROJECT['domain.yml'] ?? '').replace(
        '  utter_ask_name:\n    - text: What is your name?\n',
        '',
      )}`,
    });
    expect(errorLines(dir, result)).toEqual([]);
  });

  it('needs no question for a collect whose slot starts filled and is kept', async () => {
    const { dir, result } = await loadProject({
      'domain.yml': `slots:\n  range:\n    type: text\n    initial_value: Any\n${(BASE_PROJECT['domain.yml'] ?? '').replace('slots:\n', '')}`,
      'data/flows.yml':
        'flows:\n  greet:\n    description: d\n    steps:\n      - collect: range\n      - action: utter_done\n',
    });
    expect(errorLines(dir, result)).toEqual([]);
  });

  it('says that a sub agent module is Python, and that customizations are TypeScript', async () => {
    const { dir, result } = await loadProject({
      'sub_agents/helper/config.yml': `agent:
  name: helper
  description: Helps.
configuration:
  module: custom.research_agent.ResearchAgent
connections:
  mcp_servers:
    - name: tools
`,
      'custom/research_agent.py': 'class ResearchAgent:\n    pass\n',
    });
    expect(errorLines(dir, result)).toEqual([
      'sub_agents/helper/config.yml:5:11: configuration.module "custom.research_agent.ResearchAgent": is Python (custom/research_agent.py), which Switchboard does not run: customizations are written in TypeScript, as custom/research_agent.ts',
    ]);
  });

  it('accepts Python actions of an in-process actions module with one note naming them', async () => {
    const { dir, result } = await loadProject({
      'endpoints.yml': `action_endpoint:\n  actions_module: actions\n${BASE_PROJECT['endpoints.yml']}`,
      'domain.yml': `actions:\n  - action_check_balance\n  - action_unused\n${BASE_PROJECT['domain.yml']}`,
      'data/flows.yml':
        'flows:\n  greet:\n    description: d\n    steps:\n      - action: action_check_balance\n      - action: utter_done\n',
    });
    expect(errorLines(dir, result)).toEqual([]);
    expect(result.notes.map((n) => `${n.line}:${n.col}: ${n.message}`)).toEqual([
      '2:19: action_endpoint.actions_module "actions" runs Python inside Rasa, which Switchboard cannot do: 1 action(s) the flows use will not run here (action_check_balance). Serve them from a Rasa action server (rasa run actions) and set action_endpoint.url, or write them in custom/actions.ts; until then a flow that reaches one gets pattern_internal_error',
    ]);
  });

  it('runs domain actions on the action server that action_endpoint.url names', async () => {
    const { dir, result } = await loadProject({
      'endpoints.yml': `action_endpoint:\n  url: http://127.0.0.1:5055/webhook\n${BASE_PROJECT['endpoints.yml']}`,
      'domain.yml': `actions:\n  - action_check_balance\n${BASE_PROJECT['domain.yml']}`,
      'data/flows.yml':
        'flows:\n  greet:\n    description: d\n    steps:\n      - action: action_check_balance\n      - action: action_unlisted\n',
    });
    expect(errorLines(dir, result)).toEqual([
      'data/flows.yml:6:17: flows.greet.steps[1].action "action_unlisted" is neither a response, a built-in action, a function exported by custom/actions.ts, nor an action the domain lists for the action server; add it to the domain\'s actions',
    ]);
  });

  it("keeps Rasa's selective domain: enable_selective_domain and the actions that ask for the domain", async () => {
    const { dir, result } = await loadProject({
      'endpoints.yml': `action_endpoint:\n  url: http://127.0.0.1:5055/webhook\n  enable_selective_domain: true\n${BASE_PROJECT['endpoints.yml']}`,
      'domain.yml': `actions:\n  - action_plain\n  - action_wide: {send_domain: true}\n  - action_narrow: {send_domain: false}\n${BASE_PROJECT['domain.yml']}`,
    });
    expect(errorLines(dir, result)).toEqual([]);
    if (!result.ok) return;
    expect(result.assistant.actionEndpoint?.enable_selective_domain).toBe(true);
    expect(result.assistant.domainActions).toEqual([
      'action_plain',
      'action_wide',
      'action_narrow',
    ]);
    expect(result.assistant.domainActionsSendingDomain).toEqual(['action_wide']);
  });

  it('refuses a domain action that nothing runs', async () => {
    const { dir, result } = await loadProject({
      'domain.yml': `actions:\n  - action_check_balance\n${BASE_PROJECT['domain.yml']}`,
      'data/flows.yml':
        'flows:\n  greet:\n    description: d\n    steps:\n      - action: action_check_balance\n',
    });
    expect(errorLines(dir, result)).toEqual([
      'data/flows.yml:5:17: flows.greet.steps[0].action "action_check_balance" is listed in the domain\'s actions, but nothing runs it: export a function action_check_balance from custom/actions.ts, or set action_endpoint.url to a Rasa action server',
    ]);
  });

  it("runs a Python command generator of the project as Switchboard's, with its llm and prompt", async () => {
    const { dir, result } = await loadProject({
      'config.yml': `pipeline:
  - name: WhitespaceTokenizer
  - name: custom.my_generator.MyCommandGenerator
    llm:
      model_group: main
      cache:
        no-cache: true
    prompt_template: prompts/commands.jinja2
`,
      'prompts/commands.jinja2': '{{ user_message }}',
    });
    expect(errorLines(dir, result)).toEqual([]);
    expect(result.ok && result.assistant.commandGenerator.promptTemplate?.text).toBe(
      '{{ user_message }}',
    );
    expect(result.notes.map((n) => n.message)).toEqual([
      "Switchboard runs CALM flows, not Rasa's NLU: the pipeline components WhitespaceTokenizer are not used (config.yml)",
      "custom.my_generator.MyCommandGenerator is a Python class, which does not run here: Switchboard generates the commands itself, with this entry's llm and prompt_template",
    ]);
  });

  it('notes the slots only NLU would fill, and checks the flows mapping conditions name', async () => {
    const { dir, result } = await loadProject({
      'domain.yml': `slots:
  size:
    type: text
    mappings:
      - type: from_entity
        entity: size
  count:
    type: float
    mappings:
      - type: from_llm
        conditions:
          - active_flow: greett
${(BASE_PROJECT['domain.yml'] ?? '').replace('slots:\n', '')}`,
    });
    expect(errorLines(dir, result)).toEqual([
      'domain.yml:12:26: slots.count.mappings[0].conditions[0].active_flow "greett" is not a flow',
    ]);
    expect(result.notes.map((n) => n.message)).toEqual([
      "Rasa fills size only through NLU (from_entity, from_intent, from_text); Switchboard runs no NLU, so the command generator's model fills them as it fills from_llm slots",
    ]);
  });

  it("knows Rasa's default patterns, responses and actions by Rasa's names", async () => {
    const { dir, result } = await loadProject({
      'data/flows.yml': `flows:
  greet:
    description: Greet.
    steps:
      - collect: name
      - action: utter_cannot_handle
      - action: utter_no_relevant_answer_found
      - action: action_trigger_search
      - action: action_reset_routing
      - link: pattern_human_handoff
  pattern_completed:
    description: Done.
    steps:
      - action: utter_can_do_something_else
      - action: action_reset_routing
`,
    });
    expect(errorLines(dir, result)).toEqual([]);
  });

  it('follows links stored as text files, as git checks links out without symlink support', async () => {
    const shared = await writeProject({
      'domain/all.yml': BASE_PROJECT['domain.yml'],
      'data/flows.yml': BASE_PROJECT['data/flows.yml'],
      'endpoints.yml': BASE_PROJECT['endpoints.yml'],
    });
    const dir = await writeProject({
      'sub_agents/helper/config.yml': BASE_PROJECT['sub_agents/helper/config.yml'],
    });
    await writeFile(
      path.join(dir, 'domain'),
      `${path.relative(dir, path.join(shared, 'domain'))}\n`,
    );
    await writeFile(path.join(dir, 'data'), path.relative(dir, path.join(shared, 'data')));
    await writeFile(
      path.join(dir, 'endpoints.yml'),
      path.relative(dir, path.join(shared, 'endpoints.yml')),
    );
    const result = await loadAssistant({ projectDir: dir, env: {} });
    expect(errorLines(dir, result)).toEqual([]);
    expect(result.ok && Object.keys(result.assistant.flows)).toEqual(['greet']);
    expect(result.ok && Object.keys(result.assistant.mcpServers)).toEqual(['tools']);
  });

  it('says which configuration files config/ holds when the project has no config.yml', async () => {
    const { dir, result } = await loadProject({
      'config.yml': undefined,
      'config/config.yml': BASE_PROJECT['config.yml'],
      'config/other-config.yml': BASE_PROJECT['config.yml'],
    });
    expect(errorLines(dir, result)).toEqual([]);
    expect(result.notes.map((n) => `${path.relative(dir, n.file)}: ${n.message}`)).toEqual([
      'config/config.yml: there is no config.yml, and config/config.yml, config/other-config.yml are not read: pass --config config/config.yml to use one; until then the default command generator runs',
    ]);
  });

  it('names a link stored as a text file whose target is missing', async () => {
    const { dir, result } = await loadProject({ 'domain.yml': '../nowhere/domain.yml\n' });
    expect(errorLines(dir, result)).toContain(
      'domain.yml:1:1: the file holds only the path "../nowhere/domain.yml", as a link stored as a text file does, but that path does not exist or its links go round in a circle',
    );
  });

  it("catches a typo in a pattern condition's context key", async () => {
    const { dir, result } = await loadProject({
      'data/patterns.yml': `flows:
  pattern_cancel_flow:
    description: Cancel.
    steps:
      - noop: true
        next:
          - if: context.canceled_nme = "greet"
            then: END
          - else: cancel
      - id: cancel
        action: action_cancel_flow
`,
    });
    expect(errorLines(dir, result)).toEqual([
      'data/patterns.yml:7:17: flows.pattern_cancel_flow.steps[0].next[0].if reads context.canceled_nme, which pattern_cancel_flow\'s context does not hold (did you mean "canceled_name"?) (it has canceled_name, canceled_frames)',
    ]);
  });
});
