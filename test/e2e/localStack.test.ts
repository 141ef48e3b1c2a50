import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  demoPeersOnFreePorts,
  REPO_ROOT,
  type RunningSwitchboard,
  runUntilExit,
  say,
  startDemoSwitchboard,
  startSwitchboard,
} from '../helpers/localProcess.js';
import { writeProject } from '../helpers/project.js';
import { tempDir } from '../helpers/tempDirs.js';

describe('switchboard run', () => {
  let app: RunningSwitchboard;

  beforeAll(async () => {
    app = await startSwitchboard();
  }, 60_000);

  afterAll(async () => {
    await app?.stop();
  });

  it('answers health checks', async () => {
    const response = await fetch(`${app.url}/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('plays the demo conversation through the REST channel with the scripted demo model', async () => {
    expect(app.stderr()).toContain('using the scripted demo model');
    const texts = async (message: string) =>
      (await say(app.url, 'e2e-demo', message)).map((m) => m.text);
    expect(await texts('Hi, can someone call me back?')).toEqual([
      'Happy to arrange a call. What name should we ask for?',
    ]);
    expect(await texts('Ada')).toEqual(['Which number should we call, Ada?']);
    const question = await say(app.url, 'e2e-demo', '0151 2345678');
    expect(question.map((m) => m.text)).toEqual(['When suits you best?']);
    expect(question[0]?.buttons?.map((b) => b.payload)).toEqual([
      '/SetSlots(callback_time=morning)',
      '/SetSlots(callback_time=afternoon)',
      '/SetSlots(callback_time=evening)',
    ]);
    expect(await texts('/SetSlots(callback_time=afternoon)')).toEqual([
      'Done: a salesperson will call Ada on 0151 2345678 in the afternoon.',
      'Can I help you with anything else?',
    ]);

    const tracker = (await (await fetch(`${app.url}/conversations/e2e-demo/tracker`)).json()) as {
      sender_id: string;
      events: { event: string; text?: string; flow_id?: string }[];
      stack: unknown[];
      slots: Record<string, unknown>;
    };
    expect(tracker.sender_id).toBe('e2e-demo');
    expect(tracker.stack).toEqual([]);
    expect(tracker.events.filter((e) => e.event === 'user').map((e) => e.text)).toEqual([
      'Hi, can someone call me back?',
      'Ada',
      '0151 2345678',
      '/SetSlots(callback_time=afternoon)',
    ]);
    expect(
      tracker.events.filter((e) => e.event === 'flow_completed').map((e) => e.flow_id),
    ).toEqual(['pattern_session_start', 'request_callback', 'pattern_completed']);
    // The terminal shows the conversation as it goes.
    expect(app.stderr()).toContain('e2e-demo < Hi, can someone call me back?\n');
    expect(app.stderr()).toContain(
      'e2e-demo > When suits you best? [Morning | Afternoon | Evening]\n',
    );
  });

  it('answers a retried message with the same replies and processes it once', async () => {
    const post = async () => {
      const response = await fetch(`${app.url}/webhooks/rest/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          sender: 'e2e-retry',
          message: 'Hi, can someone call me back?',
          metadata: { message_id: 'client-msg-1' },
        }),
      });
      return (await response.json()) as { text: string }[];
    };
    const first = await post();
    const second = await post();
    expect(second).toEqual(first);
    const tracker = (await (await fetch(`${app.url}/conversations/e2e-retry/tracker`)).json()) as {
      events: { event: string }[];
    };
    expect(tracker.events.filter((e) => e.event === 'user')).toHaveLength(1);
  });

  it('refuses a malformed body with a reason', async () => {
    const response = await fetch(`${app.url}/webhooks/rest/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"sender": "x"',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'the body is not valid JSON' });
  });
});

describe('switchboard run --state', () => {
  it('keeps conversations across restarts and shuts down cleanly', async () => {
    const data = await tempDir('switchboard-data-');
    const first = await startSwitchboard(['--state', data]);
    await say(first.url, 'keeper', 'Hi, can someone call me back?');
    expect(await first.stop('SIGINT')).toBe(0);
    expect(first.stderr()).toContain('shutting down');

    // A --data folder that holds no YAML files names the same folder, as before Rasa's options.
    const second = await startSwitchboard(['--data', data]);
    try {
      expect((await say(second.url, 'keeper', 'Grace')).map((m) => m.text)).toEqual([
        'Which number should we call, Grace?',
      ]);
    } finally {
      expect(await second.stop()).toBe(0);
    }
  }, 90_000);

  it('refuses a second run on a state folder in use, naming the process that uses it', async () => {
    const data = await tempDir('switchboard-data-');
    const first = await startSwitchboard(['--state', data], { SWITCHBOARD_DEMO_PEERS: 'off' });
    try {
      const second = await runUntilExit(['--state', data], { SWITCHBOARD_DEMO_PEERS: 'off' });
      expect(second.code).toBe(1);
      expect(second.stdout).not.toContain('listening on');
      expect(second.stderr).toContain(
        `switchboard run: the state folder ${data} is in use by process ${first.pid}`,
      );
      expect(second.stderr).not.toMatch(/\n\s+at /);
      // The first run is unharmed.
      expect(await say(first.url, 'holder', 'Hi, can someone call me back?')).not.toEqual([]);
    } finally {
      expect(await first.stop()).toBe(0);
    }
  }, 90_000);
});

describe("switchboard run with Rasa's project options", () => {
  it('reads the config, domain and flows from where --config, --domain and --data say', async () => {
    const dir = await writeProject({
      'config/config.yml': 'recipe: default.v1\npipeline: []\n',
      'assistant/domain.yml':
        'slots:\n  name:\n    type: text\nresponses:\n  utter_ask_name:\n    - text: Your name?\n  utter_hi:\n    - text: Hi {name}!\n',
      'flows/greet.yml':
        'flows:\n  greet:\n    description: Greet.\n    steps:\n      - collect: name\n      - action: utter_hi\n',
    });
    const at = (file: string) => path.join(dir, file);
    const app = await startSwitchboard(
      ['--project', dir, '--config', at('config/config.yml'), '--domain', at('assistant')].concat([
        '--data',
        at('flows'),
      ]),
      { SWITCHBOARD_DEMO_PEERS: 'off' },
    );
    try {
      expect(app.stderr()).toContain('loaded assistant: 1 flows, 1 slots, 2 responses');
      expect((await say(app.url, 'rasa', '/StartFlow(greet)')).map((m) => m.text)).toEqual([
        'Your name?',
      ]);
    } finally {
      expect(await app.stop()).toBe(0);
    }
  }, 60_000);
});

describe('switchboard run with SWITCHBOARD_REST_TOKEN set but blank', () => {
  it('refuses to start instead of serving without authentication', async () => {
    for (const blank of ['', '   ']) {
      const child = spawn(
        process.execPath,
        [path.join(REPO_ROOT, 'bin/switchboard.js'), 'run', '--port', '0'],
        {
          cwd: REPO_ROOT,
          env: { ...process.env, OPENAI_API_KEY: '', SWITCHBOARD_REST_TOKEN: blank },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let out = '';
      let err = '';
      child.stdout.on('data', (chunk) => {
        out += String(chunk);
      });
      child.stderr.on('data', (chunk) => {
        err += String(chunk);
      });
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect(code).toBe(1);
      expect(out).not.toContain('listening on');
      expect(err).toContain('SWITCHBOARD_REST_TOKEN is set but blank');
    }
  }, 60_000);
});

describe('switchboard run --demo-peers (npm start)', () => {
  it('runs the example’s demo peers for the financing flow and the research, test-drive and shopping agents', async () => {
    const app = await startDemoSwitchboard();
    try {
      for (const name of ['car_catalog', 'dealer_directory', 'appointment_booking', 'financing']) {
        expect(app.stderr()).toContain(`demo MCP server ${name} on http://127.0.0.1:`);
      }
      expect(app.stderr()).toMatch(
        /demo A2A agent car_shopping_agent on http:\/\/127\.0\.0\.1:\d+\//,
      );
      const texts = async (message: string) =>
        (await say(app.url, 'e2e-finance', message)).map((m) => m.text);
      expect(await texts('Can I finance a car?')).toEqual(['How much would you like to borrow?']);
      expect(await texts('25000')).toEqual(['Over how many months?']);
      expect(await texts('/SetSlots(loan_term_months=48)')).toEqual([
        'That comes to about 585.98 a month.',
        'Can I help you with anything else?',
      ]);
      const tracker = (await (
        await fetch(`${app.url}/conversations/e2e-finance/tracker`)
      ).json()) as { slots: Record<string, unknown> };
      expect(tracker.slots).toMatchObject({ monthly_payment: 585.98, budget: null });

      // Knowledge questions are answered by the catalog's search tool (endpoints.yml vector_store).
      expect(
        (await say(app.url, 'e2e-faq', 'What warranty do you give?')).map((m) => m.text),
      ).toEqual([
        'Every new car comes with a three-year warranty, and the batteries of electric cars with eight years.',
      ]);

      // The research agent (general-purpose) and the test-drive agent (task-specific) use them too.
      const agent = async (message: string) =>
        (await say(app.url, 'e2e-agents', message)).map((m) => m.text);
      expect(await agent('Can you recommend an electric SUV under 50000?')).toEqual([
        'Let me check the catalog.',
        'Here are some options: Aurora EV (electric suv, €46,900). Would you like the details of one of them?',
      ]);
      expect((await agent('Tell me about the Aurora EV'))[1]).toMatch(
        /^The Aurora EV costs €46,900/,
      );
      expect(await agent('That is all, thanks')).toEqual([
        'You are welcome. Enjoy finding your car!',
        'Can I help you with anything else?',
      ]);
      expect((await agent('I would like to test drive it in Hamburg'))[1]).toMatch(
        /^Northside Motors has free test-drive slots on Monday 10:00/,
      );
      expect(await agent('Monday at 10')).toEqual([
        'Shall I book a test drive of the Aurora EV at Northside Motors on Monday 10:00?',
      ]);
      expect(await agent('/SetSlots(confirm_booking=true)')).toEqual([
        'Booked! Your reference is TD-1001.',
        'Can I help you with anything else?',
      ]);

      // The shopping agent (A2A) reads car_model from the slots it is sent, and asks on its task.
      expect(await agent('I would like to buy it')).toEqual([
        'Which trim of the Aurora EV would you like: Base, Sport, Touring?',
      ]);
      expect(await agent('Touring')).toEqual([
        'Checking the dealership’s stock for the Aurora EV Touring…',
        'Your Aurora EV Touring is ordered: order A-1001, €50,900. The dealership will call you to arrange delivery.',
        'Can I help you with anything else?',
      ]);
    } finally {
      await app.stop();
    }
  }, 90_000);

  it('leaves the demo servers off with SWITCHBOARD_DEMO_PEERS=off', async () => {
    // Free ports: no other run's demo servers answer there either.
    const args = await demoPeersOnFreePorts();
    const endpoints = await readFile(args[args.indexOf('--endpoints') + 1] ?? '', 'utf8');
    const urls = [...endpoints.matchAll(/http:\/\/127\.0\.0\.1:\d+/g)].map(([url]) => url);
    expect(urls.length).toBeGreaterThanOrEqual(4);
    const app = await startSwitchboard(args, { SWITCHBOARD_DEMO_PEERS: 'off' });
    try {
      expect(app.stderr()).not.toContain('demo MCP server');
      expect(app.stderr()).not.toContain('demo A2A agent');
      // Nothing listens where the demo servers would: each address refuses the connection.
      for (const url of urls) await expect(fetch(url)).rejects.toThrow();
      // The assistant itself still serves.
      expect((await fetch(`${app.url}/health`)).status).toBe(200);
    } finally {
      await app.stop();
    }
  }, 60_000);
});
