import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DemoModel } from '../../../src/demo/index.js';
import { modelFactory } from '../../../src/llm/index.js';
import { startLocalStack } from '../../../src/local/index.js';
import { assistantFrom } from '../../helpers/dialogue.js';
import { type Emulators, startEmulators } from '../../helpers/emulators.js';
import type { ProjectFilesSpec } from '../../helpers/project.js';
import {
  type RestMessage,
  type TestRuntime,
  testRuntime,
  webhookMessages,
} from '../../helpers/runtime.js';
import { ScriptedOpenAi } from '../../helpers/scriptedOpenAi.js';

let emulators: Emulators;
beforeAll(async () => {
  emulators = await startEmulators({ visibilityTimeoutSeconds: 1 });
}, 30_000);
afterAll(async () => {
  await emulators?.close();
});

// Each test gets its own model server: the command generator's and the rephraser's model
// groups both point at it, told apart by their model names.
let server: ScriptedOpenAi;
beforeEach(async () => {
  server = await ScriptedOpenAi.start();
});
afterEach(async () => {
  await server.close();
});

const COMMANDS_CONFIG = `pipeline:
  - name: CompactLLMCommandGenerator
    llm:
      model_group: commands
`;

const endpoints = (nlg: string, rephraserTimeout = 10) => `model_groups:
  - id: commands
    models:
      - model: commander
        api_base: ${server.url}
  - id: rephrasing
    models:
      - model: rephraser
        api_base: ${server.url}
        timeout: ${rephraserTimeout}
nlg:
${nlg}`;

const DOMAIN = `slots:
  customer_name:
    type: text
  phone:
    type: text
responses:
  utter_ask_customer_name:
    - text: What name should we ask for?
      metadata:
        rephrase: true
  utter_ask_phone:
    - text: Which number should we call, {customer_name}?
      metadata:
        rephrase: true
  utter_callback_booked:
    - text: We will call {customer_name} on {phone}.
      metadata:
        rephrase: true
        rephrase_prompt: "Confirm warmly, keeping the number: {{ suggested_response }}"
  utter_recorded:
    - text: Calls may be recorded.
      metadata:
        rephrase: false
  utter_hours:
    - text: We are open from 9 to 5.
  # The default asks to be rephrased, as Rasa's does; this project says it as written.
  utter_can_do_something_else:
    - text: Can I help you with anything else?
`;

const FLOWS = `flows:
  request_callback:
    description: Arrange a call back.
    steps:
      - collect: customer_name
      - collect: phone
      - action: utter_callback_booked
      - action: utter_recorded
  opening_hours:
    description: Tell the opening hours.
    steps:
      - action: utter_hours
      - action: utter_recorded
`;

const PROMPT = `Rephrase for a car dealership.
Conversation:
{{ history }}
{{ current_input }}
Suggested: {{ suggested_response }}
Rephrased:`;

const project = (nlg: string, changes: ProjectFilesSpec = {}): ProjectFilesSpec => ({
  'config.yml': COMMANDS_CONFIG,
  'endpoints.yml': endpoints(nlg),
  'domain.yml': DOMAIN,
  'data/flows.yml': FLOWS,
  'prompts/rephrase.jinja2': PROMPT,
  ...changes,
});

/** A runtime on the emulators whose models come from the project, as a deployment's do. */
async function runtimeFor(files: ProjectFilesSpec): Promise<TestRuntime> {
  const assistant = await assistantFrom(files);
  const models = modelFactory({
    assistant,
    env: {},
    secrets: { get: async () => '' },
    withoutAccess: { standIn: new DemoModel() },
  });
  return testRuntime(emulators, assistant, { models, replyWaitMs: 20_000 });
}

const say = webhookMessages;

const texts = (messages: readonly RestMessage[]) => messages.map((m) => m.text);

/** The bot events of the conversation's tracker, as the tracker route shows them. */
async function trackerBots(rt: TestRuntime, sender: string) {
  const response = await rt.http.handle({
    method: 'GET',
    path: `/conversations/${sender}/tracker`,
    headers: {},
  });
  const { events } = response.body as { events: { event: string }[] };
  return events.filter((e) => e.event === 'bot');
}

/** The prompts the rephraser's model got, in the order they arrived. */
function rephrasePrompts(): string[] {
  return server.requests
    .map((r) => r.body as { model: string; messages: { content: string }[] })
    .filter((body) => body.model === 'rephraser')
    .map((body) => body.messages.map((m) => m.content).join('\n'));
}

const rephraseWarnings = (rt: TestRuntime) =>
  rt.logs.filter((line) => line.startsWith('warn rephrasing a response failed'));

describe('response rephrasing', () => {
  it('answers the REST webhook with the model’s wording and keeps it in the tracker', async () => {
    const rt = await runtimeFor(
      project(
        '  type: rephrase\n  summarize_history: false\n  prompt: prompts/rephrase.jinja2\n  llm:\n    model_group: rephrasing\n',
      ),
    );
    server.reply('start flow request_callback', 'Happy to arrange that! Who should we ask for?');
    expect(texts(await say(rt, 'grace', 'I would like a call back'))).toEqual([
      'Happy to arrange that! Who should we ask for?',
    ]);
    server.reply('set slot customer_name Grace', 'Thanks, Grace! What number should we ring?');
    expect(texts(await say(rt, 'grace', 'Grace'))).toEqual([
      'Thanks, Grace! What number should we ring?',
    ]);
    server.verify();

    // The project's prompt, with the recent turns (the user saw the rephrased question) and the
    // suggested response.
    expect(rephrasePrompts()[1]).toBe(`Rephrase for a car dealership.
Conversation:
USER: I would like a call back
AI: Happy to arrange that! Who should we ask for?
USER: Grace
USER: Grace
Suggested: Which number should we call, Grace?
Rephrased:`);
    expect(await trackerBots(rt, 'grace')).toMatchObject([
      {
        text: 'Happy to arrange that! Who should we ask for?',
        metadata: {
          utter_action: 'utter_ask_customer_name',
          rephrased_from: 'What name should we ask for?',
        },
      },
      {
        text: 'Thanks, Grace! What number should we ring?',
        metadata: {
          utter_action: 'utter_ask_phone',
          rephrased_from: 'Which number should we call, Grace?',
        },
      },
    ]);
  }, 30_000);

  it("uses a response's own rephrase_prompt, and sends unflagged responses as written", async () => {
    const rt = await runtimeFor(
      project(
        '  type: rephrase\n  summarize_history: false\n  llm:\n    model_group: rephrasing\n',
      ),
    );
    server.reply(
      'start flow request_callback',
      'Who should we ask for?',
      'set slot customer_name Grace',
      'Your number, Grace?',
      'set slot phone 0151 2345678',
      'All set: we will ring Grace on 0151 2345678!',
    );
    await say(rt, 'booking', 'call me back');
    await say(rt, 'booking', 'Grace');
    expect(texts(await say(rt, 'booking', '0151 2345678'))).toEqual([
      'All set: we will ring Grace on 0151 2345678!',
      'Calls may be recorded.',
      'Can I help you with anything else?',
    ]);
    server.verify();
    expect(rephrasePrompts()[2]).toBe(
      'Confirm warmly, keeping the number: We will call Grace on 0151 2345678.',
    );
  }, 30_000);

  it('rephrases every response with rephrase_all, except one marked rephrase: false', async () => {
    const rt = await runtimeFor(
      project(
        '  type: rephrase\n  rephrase_all: true\n  summarize_history: false\n  prompt: prompts/bare.jinja2\n  llm:\n    model_group: rephrasing\n',
        { 'prompts/bare.jinja2': '{{ suggested_response }}' },
      ),
    );
    server.reply('start flow opening_hours', 'First rewording.', 'Second rewording.');
    const answer = texts(await say(rt, 'hours', 'when are you open?'));
    server.verify();

    // The two calls run at once: each message gets the reply to the request that carried it.
    const prompts = rephrasePrompts();
    expect([...prompts].sort()).toEqual([
      'Can I help you with anything else?',
      'We are open from 9 to 5.',
    ]);
    const reworded = (original: string) =>
      ['First rewording.', 'Second rewording.'][prompts.indexOf(original)];
    expect(answer).toEqual([
      reworded('We are open from 9 to 5.'),
      'Calls may be recorded.',
      reworded('Can I help you with anything else?'),
    ]);
  }, 30_000);

  it('sends the response as written when the model fails, and logs it once', async () => {
    const rt = await runtimeFor(
      project(
        '  type: rephrase\n  summarize_history: false\n  llm:\n    model_group: rephrasing\n',
      ),
    );
    server.reply('start flow request_callback', { status: 500, message: 'model overloaded' });
    expect(texts(await say(rt, 'failing', 'call me'))).toEqual(['What name should we ask for?']);
    server.verify();
    const [bot] = await trackerBots(rt, 'failing');
    expect(bot).toMatchObject({ text: 'What name should we ask for?' });
    expect(JSON.stringify(bot)).not.toContain('rephrased_from');
    expect(rephraseWarnings(rt)).toHaveLength(1);
    expect(rephraseWarnings(rt)[0]).toContain('utter_ask_customer_name');
  }, 30_000);

  it('sends the response as written when the model is slower than its timeout', async () => {
    const rt = await runtimeFor(
      project(
        '  type: rephrase\n  summarize_history: false\n  llm:\n    model_group: rephrasing\n',
        {
          'endpoints.yml': endpoints(
            '  type: rephrase\n  summarize_history: false\n  llm:\n    model_group: rephrasing\n',
            0.3,
          ),
        },
      ),
    );
    server.reply('start flow request_callback', { text: 'Too late.', delayMs: 5000 });
    expect(texts(await say(rt, 'slow', 'call me'))).toEqual(['What name should we ask for?']);
    expect(rephraseWarnings(rt)).toHaveLength(1);
  }, 30_000);

  it("rephrases with Switchboard's rephraser when the project names a Python class", async () => {
    const rt = await runtimeFor(
      project(
        '  type: rephraser.CustomContextualResponseRephraser\n  summarize_history: false\n  prompt: prompts/rephrase.jinja2\n  llm:\n    model_group: rephrasing\n',
      ),
    );
    server.reply('start flow request_callback', 'Who may we ask for?');
    expect(texts(await say(rt, 'python', 'call me back'))).toEqual(['Who may we ask for?']);
    expect(rephrasePrompts()[0]).toContain('Rephrase for a car dealership.');
  }, 30_000);

  it('never asks a model to rephrase while commands come from the scripted demo model', async () => {
    // No model group for the command generator and no key: the demo model plays it.
    const rt = await runtimeFor(
      project('  type: rephrase\n  rephrase_all: true\n  llm:\n    model_group: rephrasing\n', {
        'config.yml': undefined,
      }),
    );
    expect(texts(await say(rt, 'demo', 'please call me back'))).toEqual([
      'What name should we ask for?',
    ]);
    expect(server.requests).toEqual([]);
  }, 30_000);

  it('keeps the local stack’s demo conversation as written, and says why', async () => {
    const announced: string[] = [];
    const stack = await startLocalStack({
      assistant: await assistantFrom(
        project('  type: rephrase\n  llm:\n    model_group: rephrasing\n', {
          'config.yml': undefined,
        }),
      ),
      port: 0,
      env: {},
      announce: (line) => announced.push(line),
    });
    try {
      const response = await fetch(`${stack.url}/webhooks/rest/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ sender: 'local', message: 'please call me back' }),
      });
      expect(((await response.json()) as RestMessage[]).map((m) => m.text)).toEqual([
        'What name should we ask for?',
      ]);
    } finally {
      await stack.stop();
    }
    expect(announced).toContain('responses are not rephrased with the demo model');
    expect(server.requests).toEqual([]);
  }, 30_000);
});
