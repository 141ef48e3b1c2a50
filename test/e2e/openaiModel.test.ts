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
