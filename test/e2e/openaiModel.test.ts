import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSwitchboard, say, startSwitchboard } from '../helpers/localProcess.js';
import { ScriptedOpenAi } from '../helpers/scriptedOpenAi.js';

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
    const app = await startSwitchboard(['--demo-peers'], {
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
