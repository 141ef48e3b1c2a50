import { describe, expect, it } from 'vitest';
import {
  type ActionPort,
  DialogueEngine,
  type RephraseFailure,
} from '../../../src/dialogue/index.js';
import { assistantFrom, Conversation, ScriptedLlm, testPorts } from '../../helpers/dialogue.js';
import type { ProjectFilesSpec } from '../../helpers/project.js';

const nlg = (settings: string) => `mcp_servers:
  - name: tools
    url: http://127.0.0.1:9000/mcp
nlg:
  type: rephrase
${settings}`;

const PROJECT: ProjectFilesSpec = {
  'endpoints.yml': nlg('  summarize_history: false\n'),
  'domain.yml': `slots:
  name:
    type: text
responses:
  utter_ask_name:
    - text: What is your name?
      metadata:
        rephrase: true
  utter_hello:
    - text: Hello {name}!
      buttons:
        - title: Thanks
          payload: /thanks
      metadata:
        rephrase: true
        rephrase_prompt: "Greet {{ slots.name }} warmly. Suggested: {{ suggested_response }}"
  utter_plain:
    - text: Your visit is booked.
  utter_legal:
    - text: Terms apply.
      metadata:
        rephrase: false
`,
  'data/flows.yml': `flows:
  greet:
    description: Greet the user by name.
    steps:
      - collect: name
      - action: utter_hello
      - action: utter_plain
      - action: utter_legal
  note:
    description: Take a note.
    steps:
      - action: action_note
      - action: utter_plain
  research:
    description: Research something.
    steps:
      - call: researcher
`,
  'custom/actions.ts': `export function action_note() {
  return { messages: [{ text: 'Noted, thank you.' }] };
}
`,
  'sub_agents/researcher/config.yml': `agent:
  name: researcher
  description: Researches.
connections:
  mcp_servers:
    - name: tools
`,
};

/** The project's custom action, as the runtime would run it: it answers with its own text. */
const NOTE_ACTION: ActionPort = {
  has: (name) => name === 'action_note',
  run: async () => ({ messages: [{ text: 'Noted, thank you.' }] }),
};

interface Rephrasing {
  readonly c: Conversation;
  readonly model: ScriptedLlm;
  readonly failures: RephraseFailure[];
}

async function rephrasing(changes: ProjectFilesSpec = {}): Promise<Rephrasing> {
  const assistant = await assistantFrom({ ...PROJECT, ...changes });
  const model = new ScriptedLlm();
  const failures: RephraseFailure[] = [];
  const ports = {
    ...testPorts(NOTE_ACTION),
    rephrase: { llm: model, failed: (failure: RephraseFailure) => failures.push(failure) },
  };
  return { c: new Conversation(new DialogueEngine(assistant), ports), model, failures };
}

function botEvents(c: Conversation) {
  return c.events.filter((e) => e.event === 'bot');
}

describe('response rephrasing', () => {
  it('sends and stores the model’s text for a flagged response, keeping the template’s text and the response name', async () => {
    const { c, model } = await rephrasing();
    c.ports.llm.reply('start flow greet');
    model.reply('Lovely to meet you! What should I call you?');
    expect(await c.say('hi there')).toEqual(['Lovely to meet you! What should I call you?']);

    expect(c.last?.messages[0]?.metadata).toMatchObject({
      rephrased_from: 'What is your name?',
    });
    expect(botEvents(c)[0]).toMatchObject({
      text: 'Lovely to meet you! What should I call you?',
      metadata: { utter_action: 'utter_ask_name', rephrased_from: 'What is your name?' },
    });
    expect(c.state.history.at(-1)).toEqual({
      role: 'bot',
      text: 'Lovely to meet you! What should I call you?',
    });
    expect(c.state.last_bot_events[0]).toMatchObject({
      text: 'Lovely to meet you! What should I call you?',
    });
  });

  it('leaves responses that do not ask for it as written, and keeps buttons', async () => {
    const { c, model } = await rephrasing();
    c.ports.llm.reply('start flow greet', 'set slot name Ada');
    model.reply('Could I get your name?', 'Ada, so glad you are here!');
    await c.say('hi');
    expect(await c.say('Ada')).toEqual([
      'Ada, so glad you are here!',
      'Your visit is booked.',
      'Terms apply.',
      'Can I help you with anything else?',
    ]);
    expect(c.last?.messages[0]?.buttons).toEqual([{ title: 'Thanks', payload: '/thanks' }]);
    expect(model.remaining).toBe(0);
  });

  it('rephrases every response with rephrase_all except one marked rephrase: false', async () => {
    const { c, model } = await rephrasing({
      'endpoints.yml': nlg('  rephrase_all: true\n  summarize_history: false\n'),
    });
    c.ports.llm.reply('start flow greet', 'set slot name Ada');
    model.reply('Name, please?', 'Welcome, Ada!', 'All booked for you.', 'Anything more?');
    await c.say('hi');
    expect(await c.say('Ada')).toEqual([
      'Welcome, Ada!',
      'All booked for you.',
      'Terms apply.',
      'Anything more?',
    ]);
    expect(model.prompts).toHaveLength(4);
  });

  it("uses a response's own rephrase_prompt, which can read the slots", async () => {
    const { c, model } = await rephrasing();
    c.ports.llm.reply('start flow greet', 'set slot name Ada');
    model.reply('Name?', 'Hi Ada!');
    await c.say('hi');
    await c.say('Ada');
    expect(model.prompts[1]).toBe('Greet Ada warmly. Suggested: Hello Ada!');
  });

  it('gives the default prompt the suggested response, the latest user message and the recent turns', async () => {
    const { c, model } = await rephrasing({
      'endpoints.yml': nlg(
        '  rephrase_all: true\n  summarize_history: false\n  max_historical_turns: 2\n',
      ),
    });
    c.ports.llm.reply('start flow greet', 'set slot name Ada', 'start flow greet');
    model.reply('Your name?', 'Welcome, Ada!', 'All booked.', 'More?', 'Name again?');
    await c.say('hi');
    await c.say('Ada');
    await c.say('book me\nagain');
    const prompt = model.prompts[4] ?? '';
    expect(prompt).toContain('Suggested message: What is your name?');
    expect(prompt).toContain('Latest user message:\nUSER: book me again');
    // Two turns: the assistant's four messages in a row count as one, then the user's.
    expect(prompt).toContain(
      'Recent conversation:\nAI: Welcome, Ada! All booked. Terms apply. More?\nUSER: book me again\n',
    );
    expect(prompt).not.toContain('USER: Ada');
  });

  it('summarizes the recent turns for the prompt when summarize_history is on', async () => {
    const { c, model } = await rephrasing({
      'endpoints.yml': nlg('  prompt: prompts/rephrase.jinja2\n'),
      'prompts/rephrase.jinja2':
        'History: {{ history }} | {{ current_input }} | {{ suggested_response }}',
    });
    c.ports.llm.reply('start flow greet');
    model.reply('The user said hi.', 'Hello! Your name?');
    expect(await c.say('hi')).toEqual(['Hello! Your name?']);
    expect(model.prompts[0]).toContain('USER: hi');
    expect(model.prompts[1]).toBe('History: The user said hi. | USER: hi | What is your name?');
  });

  it('sends the response as written when the model fails, and reports the failure once', async () => {
    const { c, model, failures } = await rephrasing();
    c.ports.llm.reply('start flow greet');
    model.reply(new Error('model overloaded'));
    expect(await c.say('hi')).toEqual(['What is your name?']);
    expect(botEvents(c)[0]?.metadata).toEqual({ rephrase: true, utter_action: 'utter_ask_name' });
    expect(failures).toEqual([
      { response: 'utter_ask_name', stage: 'rephrase', error: new Error('model overloaded') },
    ]);
  });

  it('keeps the original when the model answers with nothing', async () => {
    const { c, model, failures } = await rephrasing();
    c.ports.llm.reply('start flow greet');
    model.reply('  \n');
    expect(await c.say('hi')).toEqual(['What is your name?']);
    expect(failures).toEqual([]);
  });

  it("never rephrases a custom action's or an agent's own text", async () => {
    const { c, model } = await rephrasing({
      'endpoints.yml': nlg('  rephrase_all: true\n  summarize_history: false\n'),
    });
    c.ports.llm.reply('start flow note', 'start flow research');
    c.ports.agents.reply({ status: 'completed', responseMessage: 'I found three cars.' });
    model.reply('Your visit is all set.', 'Anything more?', 'What else can I do?');
    expect(await c.say('note this')).toEqual([
      'Noted, thank you.',
      'Your visit is all set.',
      'Anything more?',
    ]);
    expect(await c.say('research cars')).toEqual(['I found three cars.', 'What else can I do?']);
    expect(model.remaining).toBe(0);
  });

  it('rephrases the responses that follow when a background agent run reports back, not the agent’s messages', async () => {
    const { c, model } = await rephrasing({
      'endpoints.yml': nlg('  rephrase_all: true\n  summarize_history: false\n'),
    });
    const background = { invoke: async () => ({ status: 'pending' as const, runId: 'run-1' }) };
    const ports = { ...c.ports, agents: background };
    c.ports.llm.reply('start flow research');
    const started = await c.engine.handleMessage(c.state, { text: 'research cars' }, ports);
    const waiter = c.engine.runWaiter(started.state, 'run-1');
    if (!waiter) throw new Error('the flow does not wait for the run');

    model.reply('Anything more I can do?');
    const update = await c.engine.handleAgentUpdate(
      started.state,
      {
        frameId: waiter.frameId,
        runId: 'run-1',
        messages: [{ text: 'Still comparing prices.' }],
        output: { id: 'run-1', status: 'completed', responseMessage: 'I found three cars.' },
      },
      ports,
    );
    expect(update.messages.map((m) => m.text)).toEqual([
      'Still comparing prices.',
      'I found three cars.',
      'Anything more I can do?',
    ]);
    expect(update.state.history.at(-1)).toEqual({ role: 'bot', text: 'Anything more I can do?' });
    expect(model.prompts).toHaveLength(1);
  });

  it('repeats a rephrased message as the user heard it, without asking the model again', async () => {
    const { c, model } = await rephrasing({
      'endpoints.yml': nlg('  rephrase_all: true\n  summarize_history: false\n'),
    });
    c.ports.llm.reply('start flow greet', 'repeat message');
    model.reply('May I have your name?', 'So, your name?');
    await c.say('hi');
    // The repeated message, then the open question asked again (rephrased anew).
    expect(await c.say('say that again')).toEqual(['May I have your name?', 'So, your name?']);
    expect(model.prompts).toHaveLength(2);
    expect(model.prompts[1]).toContain('Suggested message: What is your name?');
  });

  it('asks for all of a turn’s messages at once: no call waits for another', async () => {
    const { c } = await rephrasing({
      'endpoints.yml': nlg('  rephrase_all: true\n  summarize_history: false\n'),
    });
    const started: string[] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const model = {
      complete: async (request: { messages: readonly { content: string }[] }) => {
        const prompt = request.messages[0]?.content ?? '';
        started.push(prompt);
        if (started.length === 2) release();
        await gate;
        return { content: `rephrased #${started.indexOf(prompt) + 1}` };
      },
    };
    const ports = { ...c.ports, rephrase: { llm: model, failed: () => {} } };
    c.ports.llm.reply('start flow note');
    const result = await c.engine.handleMessage(c.state, { text: 'note' }, ports);
    expect(result.messages.map((m) => m.text)).toEqual([
      'Noted, thank you.',
      'rephrased #1',
      'rephrased #2',
    ]);
  });

  it('rephrases nothing without a rephrase port', async () => {
    const assistant = await assistantFrom(PROJECT);
    const c = new Conversation(new DialogueEngine(assistant), testPorts());
    c.ports.llm.reply('start flow greet');
    expect(await c.say('hi')).toEqual(['What is your name?']);
  });
});
