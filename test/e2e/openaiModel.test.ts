import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  demoPeersOnFreePorts,
  type RunningSwitchboard,
  say,
  startSwitchboard,
} from '../helpers/localProcess.js';
import { ScriptedOpenAi } from '../helpers/scriptedOpenAi.js';
import { waitFor } from '../helpers/waitFor.js';

describe('switchboard run with a configured model', () => {
  let model: ScriptedOpenAi;
  let app: RunningSwitchboard;

  beforeAll(async () => {
    model = await ScriptedOpenAi.start([
      'start flow request_callback',
      'set slot customer_name Grace',
    ]);
    app = await startSwitchboard([], { OPENAI_API_KEY: 'sk-test-key', OPENAI_BASE_URL: model.url });
  }, 60_000);

  afterAll(async () => {
    await app?.stop();
    await model?.close();
  });

  it('asks the model of config.yml for commands, with the key from the environment', async () => {
    expect(app.stderr()).not.toContain('scripted demo model');
    expect((await say(app.url, 'model-user', 'I would like a call')).map((m) => m.text)).toEqual([
      'Happy to arrange a call. What name should we ask for?',
    ]);
    expect((await say(app.url, 'model-user', 'Grace Hopper')).map((m) => m.text)).toEqual([
      'Which number should we call, Grace?',
    ]);
    expect(model.requests).toHaveLength(2);
    const first = model.requests[0];
    expect(first?.headers.authorization).toBe('Bearer sk-test-key');
    expect(first?.body).toMatchObject({ model: 'gpt-5.1-2025-11-13' });
    const prompt = JSON.stringify(first?.body);
    expect(prompt).toContain('request_callback');
    expect(prompt).toContain('I would like a call');
  });
});

describe('switchboard run with a configured model and agents', () => {
  it('runs a ReAct agent against the model and the demo MCP servers through the REST webhook', async () => {
    const model = await ScriptedOpenAi.start([
      // The command generator, then the research agent's calls.
      'start flow research_cars',
      { text: 'One moment.', toolCalls: [{ name: 'search_cars', arguments: { fuel: 'hybrid' } }] },
      'The Corsa Hybrid Estate is the hybrid we have. Anything else?',
      '',
      { text: 'Enjoy the drive!', toolCalls: [{ name: 'task_completed', arguments: {} }] },
    ]);
    const app = await startSwitchboard(await demoPeersOnFreePorts(), {
      OPENAI_API_KEY: 'sk-test-key',
      OPENAI_BASE_URL: model.url,
    });
    try {
      expect((await say(app.url, 'agent-user', 'Any hybrids?')).map((m) => m.text)).toEqual([
        'One moment.',
        'The Corsa Hybrid Estate is the hybrid we have. Anything else?',
      ]);
      expect((await say(app.url, 'agent-user', 'No, thanks')).map((m) => m.text)).toEqual([
        'Enjoy the drive!',
        'Can I help you with anything else?',
      ]);
      const search = model.requests[2]?.body as { messages: { role: string; content: string }[] };
      expect(search.messages.at(-1)).toMatchObject({
        role: 'tool',
        content: expect.stringContaining('Corsa Hybrid Estate'),
      });
      model.verify();
    } finally {
      await app.stop();
      await model.close();
    }
  }, 60_000);
});

describe('switchboard run with a configured model: agent conversations through the REST webhook', () => {
  let model: ScriptedOpenAi;
  let app: RunningSwitchboard;

  beforeAll(async () => {
    model = await ScriptedOpenAi.start();
    app = await startSwitchboard(await demoPeersOnFreePorts(), {
      OPENAI_API_KEY: 'sk-test-key',
      OPENAI_BASE_URL: model.url,
    });
  }, 60_000);

  afterAll(async () => {
    await app?.stop();
    await model?.close();
  });

  const texts = async (sender: string, message: string) =>
    (await say(app.url, sender, message)).map((m) => m.text);

  it('asks for a closing line when task_completed comes without text', async () => {
    model.reply(
      'start flow research_cars',
      { toolCalls: [{ name: 'task_completed', arguments: {} }] },
      'Glad to help!',
    );
    expect(await texts('closing', 'just browsing, thanks')).toEqual([
      'Glad to help!',
      'Can I help you with anything else?',
    ]);
    model.verify();
  });

  it('fills the test-drive slots with the task-specific agent, then books through the flow', async () => {
    model.reply(
      'start flow book_test_drive\nset slot car_model Aurora EV',
      {
        text: 'Let me look.',
        toolCalls: [{ name: 'find_dealers', arguments: { city: 'Berlin' } }],
      },
      { toolCalls: [{ name: 'list_free_slots', arguments: { dealer: 'Riverside Cars' } }] },
      'Riverside Cars can do Monday 10:00 or Tuesday 11:00. Which suits you?',
    );
    expect(await texts('drive', 'a test drive of the Aurora EV in Berlin, please')).toEqual([
      'Let me look.',
      'Riverside Cars can do Monday 10:00 or Tuesday 11:00. Which suits you?',
    ]);
    model.reply('', {
      toolCalls: [
        { name: 'set_slot_dealer_name', arguments: { slot_value: 'Riverside Cars' } },
        { name: 'set_slot_appointment_time', arguments: { slot_value: 'Tuesday 11:00' } },
      ],
    });
    expect(await texts('drive', 'Tuesday')).toEqual([
      'Shall I book a test drive of the Aurora EV at Riverside Cars on Tuesday 11:00?',
    ]);
    expect(await texts('drive', '/SetSlots(confirm_booking=true)')).toEqual([
      expect.stringMatching(/^Booked! Your reference is TD-\d+\.$/),
      'Can I help you with anything else?',
    ]);
    model.verify();
  });

  it('keeps a message sent while the agent works and hands it to the agent when it asks', async () => {
    model.reply(
      'start flow research_cars',
      {
        text: 'Checking.',
        toolCalls: [{ name: 'search_cars', arguments: { fuel: 'electric' } }],
        delayMs: 1500,
      },
      // The command generator, for the message that arrives meanwhile (held).
      '',
      'We have the Aurora EV. Shall I tell you more?',
      // The command generator again, when the held message is handled: it goes to the agent.
      '',
      { text: 'Sure, any time!', toolCalls: [{ name: 'task_completed', arguments: {} }] },
    );
    const before = model.requests.length;
    const first = texts('busy', 'any electric cars?');
    // The agent's first model call is under way (and held back) when the user writes again.
    await waitFor(() => model.requests.length >= before + 2, { description: "the agent's call" });
    expect(await texts('busy', 'no rush, thanks')).toEqual([
      "I'm still working on your request. I'll let you know as soon as it's done.",
    ]);
    expect(await first).toEqual([
      'Checking.',
      'We have the Aurora EV. Shall I tell you more?',
      'Sure, any time!',
      'Can I help you with anything else?',
    ]);
    model.verify();
  });
});
