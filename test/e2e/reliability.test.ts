import { afterEach, describe, expect, it } from 'vitest';
import { type RunningSwitchboard, startSwitchboard } from '../helpers/localProcess.js';
import { ScriptedOpenAi } from '../helpers/scriptedOpenAi.js';
import { tempDir } from '../helpers/tempDirs.js';
import { waitFor } from '../helpers/waitFor.js';

const GREETING = 'Happy to arrange a call. What name should we ask for?';

interface Tracker {
  events: { event: string; text?: string }[];
}

async function tracker(url: string, sender: string): Promise<Tracker> {
  return (await (await fetch(`${url}/conversations/${sender}/tracker`)).json()) as Tracker;
}

/** Polls the tracker until `done` holds for it (or fails after `timeoutMs`). */
async function waitForTracker(
  url: string,
  sender: string,
  done: (t: Tracker) => boolean,
  timeoutMs = 20_000,
): Promise<Tracker> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const current = await tracker(url, sender);
    if (done(current)) return current;
    if (Date.now() > deadline) throw new Error(`tracker of ${sender}: ${JSON.stringify(current)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const texts = (t: Tracker, kind: string) =>
  t.events.filter((e) => e.event === kind).map((e) => e.text);

function post(url: string, sender: string, message: string) {
  return fetch(`${url}/webhooks/rest/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ sender, message }),
  });
}

describe('accepted messages across stops', () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  async function start(data: string, model: ScriptedOpenAi, env: Record<string, string> = {}) {
    const app: RunningSwitchboard = await startSwitchboard(['--data', data], {
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: model.url,
      ...env,
    });
    cleanup.push(() => app.stop('SIGKILL'));
    return app;
  }

  it('runs a message answered before its turn ended exactly once after the process is killed', async () => {
    const data = await tempDir('switchboard-data-');
    const model = await ScriptedOpenAi.start([
      { text: 'start flow request_callback', delayMs: 4000 },
    ]);
    cleanup.push(() => model.close());
    const first = await start(data, model, { SWITCHBOARD_REPLY_WAIT_MS: '300' });
    const answer = await post(first.url, 'killed', 'Hi, can someone call me back?');
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual([]);
    await first.stop('SIGKILL');

    model.reply('start flow request_callback');
    const second = await start(data, model);
    expect(second.stderr()).toContain('queued 1 accepted message(s)');
    const done = await waitForTracker(second.url, 'killed', (t) => texts(t, 'bot').length > 0);
    expect(texts(done, 'user')).toEqual(['Hi, can someone call me back?']);
    expect(texts(done, 'bot')).toEqual([GREETING]);
  }, 60_000);

  it('answers every waiting webhook when stopped, and loses none of their messages', async () => {
    const data = await tempDir('switchboard-data-');
    const slow = { text: 'start flow request_callback', delayMs: 1500 };
    const model = await ScriptedOpenAi.start([
      slow,
      slow,
      { text: 'set slot customer_name Ada', delayMs: 1500 },
    ]);
    cleanup.push(() => model.close());
    const app = await start(data, model);
    const requests = [
      post(app.url, 'stop-a', 'Hi, can someone call me back?'),
      post(app.url, 'stop-b', 'Hi, can someone call me back?'),
      post(app.url, 'stop-a', 'Ada'),
    ];
    // A turn is with the (slow) model: the webhooks are accepted and waiting for their replies.
    await waitFor(() => model.requests.length > 0, { description: 'a model call' });
    const exited = app.stop('SIGTERM');
    const responses = await Promise.all(requests);
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(await exited).toBe(0);

    model.reply(
      'start flow request_callback',
      'start flow request_callback',
      'set slot customer_name Ada',
    );
    const again = await start(data, model);
    const a = await waitForTracker(again.url, 'stop-a', (t) => texts(t, 'bot').length >= 2);
    const b = await waitForTracker(again.url, 'stop-b', (t) => texts(t, 'bot').length >= 1);
    expect(texts(a, 'user')).toEqual(['Hi, can someone call me back?', 'Ada']);
    expect(texts(b, 'user')).toEqual(['Hi, can someone call me back?']);
  }, 60_000);
});
