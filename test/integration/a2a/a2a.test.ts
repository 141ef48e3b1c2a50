import { fileURLToPath } from 'node:url';
import { AgentCard, type AgentInterface } from '@a2a-js/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { pushToken } from '../../../src/a2a/index.js';
import { type Job, processJob } from '../../../src/runtime/index.js';
import { type A2ARuntime, startA2ARuntime } from '../../helpers/a2aRuntime.js';
import { startTestA2AAgent, type TestA2AAgent } from '../../helpers/a2aTestAgent.js';
import {
  internalErrorReasons,
  NEVER,
  runtimeSuite,
  type TestRuntime,
  userMessage,
} from '../../helpers/runtime.js';
import { waitFor } from '../../helpers/waitFor.js';

const AGENTS_MODULE = fileURLToPath(new URL('../../../src/agents/index.ts', import.meta.url));
const INTERNAL_ERROR = 'Sorry, something went wrong on my side. Please try again in a moment.';
const ANYTHING_ELSE = 'Can I help you with anything else?';
const SHOP_KEY = 'shop-secret-key-4711';
const HOOK_SECRET = 'hook-secret-token-0815';
const PUSH_KEY = 'push-signing-key-for-the-tests';

/** A 1.0 agent (streaming, push), a 0.3-only one (neither), and one whose health check fails. */
let modern: TestA2AAgent;
let legacy: TestA2AAgent;
let fragile: TestA2AAgent;
let grpcAgent: TestA2AAgent;
beforeAll(async () => {
  // The SDK's push sender reports every notification on the console.
  vi.spyOn(console, 'info').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
  modern = await startTestA2AAgent({ versions: '1.0', apiKey: SHOP_KEY });
  legacy = await startTestA2AAgent({ versions: '0.3', streaming: false });
  fragile = await startTestA2AAgent({ versions: '1.0' });
  fragile.setBroken(true);
  grpcAgent = await startTestA2AAgent({ versions: 'both', grpc: true, apiKey: SHOP_KEY });
});
afterAll(async () => {
  await Promise.all([modern?.close(), legacy?.close(), fragile?.close(), grpcAgent?.close()]);
});

/** The gRPC agent's card with only its gRPC interface of one version, as a project keeps it. */
function grpcCard(version: '1.0' | '0.3'): string {
  const card = AgentCard.toJSON(grpcAgent.host.card) as { supportedInterfaces: AgentInterface[] };
  const only = card.supportedInterfaces.filter(
    (i) => i.protocolBinding === 'GRPC' && i.protocolVersion === version,
  );
  return JSON.stringify({ ...card, supportedInterfaces: only });
}

/** The card a 0.3 agent serves, as a project keeps it in a file. */
async function legacyCard(push: boolean): Promise<string> {
  const card = (await (await fetch(legacy.cardUrl)).json()) as Record<string, unknown>;
  return JSON.stringify({ ...card, capabilities: { streaming: false, pushNotifications: push } });
}

const a2aAgent = (
  name: string,
  card: string,
  extra = '',
  maxPollingTime = 20,
  pollingInitialDelay = 0.05,
) => `agent:
  name: ${name}
  protocol: A2A
  description: Sells cars.
configuration:
  agent_card: ${card}
  max_polling_time: ${maxPollingTime}
  polling_initial_delay: ${pollingInitialDelay}
${extra}`;

let legacyPushCard = '';
let legacyPollCard = '';
const files = () => ({
  '.env': `SHOP_KEY=${SHOP_KEY}\n`,
  'domain.yml': `slots:
  trim:
    type: text
  order_id:
    type: text
  in_stock:
    type: bool
responses:
  utter_ordered:
    - text: Ordered {trim}, order {order_id}.
  utter_checked:
    - text: Stock checked.
`,
  'data/flows.yml': `flows:
  buy:
    description: Buy a car from the modern shop.
    steps:
      - call: shopper
      - action: utter_ordered
  buy_legacy:
    description: Buy a car from the old shop.
    steps:
      - call: legacy_shop
      - action: utter_checked
  buy_polled:
    description: Buy a car from the old shop, polled.
    steps:
      - call: polled_shop
      - action: utter_checked
  buy_grpc:
    description: Buy a car over gRPC.
    steps:
      - call: grpc_shop
  buy_grpc_legacy:
    description: Buy a car over gRPC from an old shop.
    steps:
      - call: grpc_legacy_shop
  buy_impatient:
    description: Buy a car from the old shop, polled briefly.
    steps:
      - call: impatient_shop
  buy_patient:
    description: Buy a car from the old shop, polled after a while.
    steps:
      - call: patient_shop
  buy_fragile:
    description: Buy a car from the broken shop.
    steps:
      - call: fragile_shop
`,
  'sub_agents/shopper/config.yml': a2aAgent(
    'shopper',
    modern.cardUrl,
    `  module: custom.shop.Shopper
  pre_call_hook: custom.shop.credentials
  auth:
    api_key: \${SHOP_KEY}
`,
  ),
  'sub_agents/legacy_shop/card.json': legacyPushCard,
  'sub_agents/legacy_shop/config.yml': a2aAgent(
    'legacy_shop',
    './sub_agents/legacy_shop/card.json',
  ),
  'sub_agents/polled_shop/card.json': legacyPollCard,
  'sub_agents/polled_shop/config.yml': a2aAgent(
    'polled_shop',
    './sub_agents/polled_shop/card.json',
  ),
  'sub_agents/grpc_shop/card.json': grpcCard('1.0'),
  'sub_agents/grpc_shop/config.yml': a2aAgent(
    'grpc_shop',
    './sub_agents/grpc_shop/card.json',
    '  auth:\n    api_key: ${SHOP_KEY}\n',
  ),
  'sub_agents/grpc_legacy_shop/card.json': grpcCard('0.3'),
  'sub_agents/grpc_legacy_shop/config.yml': a2aAgent(
    'grpc_legacy_shop',
    './sub_agents/grpc_legacy_shop/card.json',
    '  auth:\n    api_key: ${SHOP_KEY}\n',
  ),
  'sub_agents/impatient_shop/card.json': legacyPollCard,
  'sub_agents/impatient_shop/config.yml': a2aAgent(
    'impatient_shop',
    './sub_agents/impatient_shop/card.json',
    '',
    0.3,
  ),
  // Its first poll is half a minute away: the poll waits on the delay queue however slow the
  // machine is, and any job on the jobs queue came from somewhere else.
  'sub_agents/patient_shop/card.json': legacyPollCard,
  'sub_agents/patient_shop/config.yml': a2aAgent(
    'patient_shop',
    './sub_agents/patient_shop/card.json',
    '',
    600,
    30,
  ),
  'sub_agents/fragile_shop/config.yml': a2aAgent('fragile_shop', fragile.cardUrl),
  'custom/shop.ts': `import { A2AAgent } from ${JSON.stringify(AGENTS_MODULE)};

export class Shopper extends A2AAgent {
  async processInput(input) {
    return { ...input, metadata: { ...input.metadata, channel_hint: 'web' } };
  }

  async processOutput(output) {
    const order = output.structuredResults?.flat().find((r) => 'order_id' in r);
    if (!order) return output;
    return {
      ...output,
      events: [
        { event: 'slot', name: 'trim', value: order.trim },
        { event: 'slot', name: 'order_id', value: order.order_id },
      ],
    };
  }
}

export async function credentials(context) {
  return { metadata: { customer_token: ${JSON.stringify(HOOK_SECRET)} + ':' + context.senderId, tool: context.toolName ?? null } };
}
`,
});

beforeAll(async () => {
  legacyPushCard = await legacyCard(true);
  legacyPollCard = await legacyCard(false);
});
const suite = runtimeSuite(files);

describe('A2A sub agents', () => {
  let served: A2ARuntime | undefined;
  let logs: string[];

  beforeEach(() => {
    for (const agent of [modern, legacy, fragile, grpcAgent]) {
      agent.received.length = 0;
      agent.headers.length = 0;
      agent.bindings.length = 0;
      agent.cancelled.length = 0;
    }
  });
  afterAll(async () => {
    await served?.close();
  });

  /** A runtime whose A2A runs register push URLs on a served receiver (or poll, `push: false`). */
  async function a2aRuntime(options: { push?: boolean } = {}): Promise<TestRuntime> {
    await served?.close();
    served = await startA2ARuntime(suite, {
      pushKey: PUSH_KEY,
      secrets: { SHOP_KEY },
      ...(options.push === false ? { push: false } : {}),
    });
    logs = served.logs;
    return served.rt;
  }

  async function say(rt: TestRuntime, conversation: string, text: string, command: string) {
    rt.llm.reply(command);
    const job = userMessage(conversation, text);
    await rt.queue.enqueue([job]);
    await rt.drain(async () => (await rt.replies.read(conversation, job.turn_id)).settled);
    return texts(rt, conversation, job.turn_id);
  }

  const texts = async (rt: TestRuntime, conversation: string, turnId: string) =>
    (await rt.replies.read(conversation, turnId)).messages.map((m) => m.message.text);

  /** What the agent received, without the health checks. */
  const messages = (agent: TestA2AAgent) => agent.received.filter((m) => m.text !== 'health check');

  it('continues a task that asked for input on the same task, over A2A 1.0 with a card from a URL', async () => {
    const rt = await a2aRuntime();
    expect(await say(rt, 'v1-order', 'order a car', 'start flow buy')).toEqual([
      'Which trim would you like?',
    ]);
    const reply = await say(rt, 'v1-order', 'sport', '');
    expect(reply).toEqual(['Ordered the sport trim.', 'Ordered sport, order A-3.', ANYTHING_ELSE]);
    const [first, second] = messages(modern);
    expect(second?.taskId).toBe(first?.taskId);
    expect(second?.contextId).toBe(first?.contextId);
    // The answer named the task that asked.
    expect(second?.metadata).toMatchObject({
      task_id: first?.taskId,
      context_id: first?.contextId,
    });
    // The answer went to the task that asked, in its context.
    const head = await rt.store.load('v1-order');
    expect(head?.state.slots).toMatchObject({ trim: 'sport', order_id: 'A-3' });
    expect(modern.received.filter((m) => m.text === 'health check')).toHaveLength(1);
    expect(modern.headers.every((h) => h.authorization === `Bearer ${SHOP_KEY}`)).toBe(true);
    expect(modern.headers.some((h) => h['a2a-version'] === '1.0')).toBe(true);
  }, 30_000);

  it('sends the message with its context, metadata and the hook’s credentials, and keeps the secrets out of store and logs', async () => {
    const rt = await a2aRuntime();
    await say(rt, 'v1-meta', 'order a car', 'start flow buy');
    const [sent] = messages(modern);
    expect(sent?.metadata).toMatchObject({
      sender_id: 'v1-meta',
      conversation_id: 'v1-meta',
      agent_id: 'shopper',
      flow_id: 'buy',
      channel_hint: 'web',
      customer_token: `${HOOK_SECRET}:v1-meta`,
      tool: null,
    });
    expect(sent?.data[0]).toMatchObject({
      slots: { trim: null, order_id: null, in_stock: null },
      conversation_history: 'USER: order a car',
    });
    const stored = await rt.scanTable();
    for (const secret of [HOOK_SECRET, SHOP_KEY, PUSH_KEY]) {
      expect(stored).not.toContain(secret);
      expect(logs.join('\n')).not.toContain(secret);
      expect(rt.logs.join('\n')).not.toContain(secret);
    }
  }, 30_000);

  it('continues a task that asked for input on the same task with an agent that speaks only A2A 0.3, from a card file', async () => {
    const rt = await a2aRuntime({ push: false });
    expect(await say(rt, 'v03-order', 'order a car', 'start flow buy_polled')).toEqual([
      'Which trim would you like?',
    ]);
    const again = await say(rt, 'v03-order', 'comfort', '');
    expect(again).toEqual(['Ordered the comfort trim.', 'Stock checked.', ANYTHING_ELSE]);
    const [first, second] = messages(legacy);
    expect(second?.taskId).toBe(first?.taskId);
    expect(second?.metadata).toMatchObject({ task_id: first?.taskId });
    // Every request spoke 0.3: the agent refuses 1.0.
    expect(legacy.headers.every((h) => h['a2a-version'] !== '1.0')).toBe(true);
  }, 30_000);

  for (const [version, flow] of [
    ['1.0', 'buy_grpc'],
    ['0.3', 'buy_grpc_legacy'],
  ] as const) {
    it(`continues a task over gRPC with an agent card offering only gRPC on A2A ${version}, credentials in the call metadata`, async () => {
      const rt = await a2aRuntime();
      const conversation = `grpc-${version}`;
      expect(await say(rt, conversation, 'order a car', `start flow ${flow}`)).toEqual([
        'Which trim would you like?',
      ]);
      const reply = await say(rt, conversation, 'touring', '');
      expect(reply).toEqual(['Ordered the touring trim.', ANYTHING_ELSE]);
      const [first, second] = messages(grpcAgent);
      expect(second?.taskId).toBe(first?.taskId);
      expect(grpcAgent.headers.length).toBeGreaterThan(0);
      expect(grpcAgent.headers.every((h) => h.authorization === `Bearer ${SHOP_KEY}`)).toBe(true);
      expect(new Set(grpcAgent.bindings)).toEqual(new Set(['GRPC']));
    }, 30_000);
  }

  it('answers with the agent’s message when it replies with a plain message', async () => {
    const rt = await a2aRuntime();
    expect(await say(rt, 'v1-hello', 'hello there', 'start flow buy')).toEqual([
      'Hi! You said: hello there',
      expect.stringMatching(/^Ordered/),
      ANYTHING_ELSE,
    ]);
  }, 30_000);

  it('shows what a streamed task says while it works, then its result (polled without push)', async () => {
    const rt = await a2aRuntime({ push: false });
    rt.llm.reply('start flow buy');
    const job = userMessage('v1-stream', 'long check');
    await rt.queue.enqueue([job]);
    const draining = rt.drain(
      async () => (await rt.replies.read('v1-stream', job.turn_id)).settled,
    );
    await waitFor(async () => (await texts(rt, 'v1-stream', job.turn_id)).length > 0 || undefined);
    // The intermediate message reached the user before the task finished.
    expect(await texts(rt, 'v1-stream', job.turn_id)).toEqual(['Checking the stock…']);
    modern.finishLong();
    await draining;
    expect(await texts(rt, 'v1-stream', job.turn_id)).toEqual([
      'Checking the stock…',
      'The car is in stock.',
      expect.stringMatching(/^Ordered/),
      ANYTHING_ELSE,
    ]);
    const bots = (await rt.store.readEvents('v1-stream')).filter((e) => e.event.event === 'bot');
    expect(bots.map((e) => (e.event as { text?: string }).text)).toContain('Checking the stock…');
  }, 30_000);

  it('finishes a long task of a 0.3 agent by polling GetTask', async () => {
    const rt = await a2aRuntime({ push: false });
    rt.llm.reply('start flow buy_polled');
    const job = userMessage('v03-poll', 'long check');
    await rt.queue.enqueue([job]);
    const draining = rt.drain(async () => (await rt.replies.read('v03-poll', job.turn_id)).settled);
    await waitFor(async () => (await texts(rt, 'v03-poll', job.turn_id)).length > 0 || undefined);
    legacy.finishLong();
    await draining;
    expect(await texts(rt, 'v03-poll', job.turn_id)).toEqual([
      'Checking the stock…',
      'The car is in stock.',
      'Stock checked.',
      ANYTHING_ELSE,
    ]);
  }, 30_000);

  /** Runs the user message and the run's steps until the run waits for its task. */
  async function startWaiting(rt: TestRuntime, conversation: string, flow: string) {
    rt.llm.reply(`start flow ${flow}`);
    const job = userMessage(conversation, 'long check');
    await processJob(job, rt.deps, NEVER);
    for (;;) {
      const step = await rt.takeStep(conversation);
      // A short budget: a step that reads the task's stream stops soon after the agent falls silent.
      await processJob(step, rt.deps, NEVER, { deadline: Date.now() + 3000 });
      const head = await rt.store.load(conversation);
      const runId = Object.keys(head?.runs ?? {})[0];
      if (!runId) throw new Error('no run waits');
      const record = await rt.store.loadRun(conversation, runId, head?.runs[runId] ?? '');
      if ((record?.data as { notBefore?: number } | undefined)?.notBefore !== undefined) {
        return { job, runId };
      }
    }
  }

  for (const [name, agent, flow] of [
    ['1.0 agent with a stream', () => modern, 'buy'],
    ['0.3 agent', () => legacy, 'buy_legacy'],
  ] as const) {
    it(`finishes a long task of a ${name} by its push notification, without a waiting process`, async () => {
      const rt = await a2aRuntime();
      const conversation = `push-${flow}`;
      const { job, runId } = await startWaiting(rt, conversation, flow);
      // The next poll is far away: the push must do it.
      const head = await rt.store.load(conversation);
      const record = await rt.store.loadRun(conversation, runId, head?.runs[runId] ?? '');
      expect(((record?.data ?? {}) as { notBefore?: number }).notBefore).toBeGreaterThan(
        Date.now() + 10_000,
      );
      agent().finishLong();
      for (let i = 0; i < 4 && !(await rt.replies.read(conversation, job.turn_id)).settled; i++) {
        const update = await rt.takeJob(conversation, 'agent_update');
        expect(update).toMatchObject({ run_id: runId });
        await processJob(update, rt.deps, NEVER);
      }
      expect(await texts(rt, conversation, job.turn_id)).toEqual([
        'Checking the stock…',
        'The car is in stock.',
        expect.stringMatching(/^(Ordered|Stock checked)/),
        ANYTHING_ELSE,
      ]);
    }, 30_000);
  }

  /** Posts a notification for a run to the receiver. */
  async function push(conversation: string, runId: string, body: unknown, token: string) {
    return fetch(`${served?.url}/a2a/push/${conversation}/${runId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/a2a+json', 'x-a2a-notification-token': token },
      body: JSON.stringify(body),
    });
  }

  const working = (taskId: string, text: string, messageId: string) => ({
    statusUpdate: {
      taskId,
      contextId: 'c',
      status: {
        state: 'TASK_STATE_WORKING',
        message: { messageId, role: 'ROLE_AGENT', parts: [{ text }] },
      },
    },
  });

  it('refuses a forged notification and one for a task no run waits for, changing nothing', async () => {
    const rt = await a2aRuntime();
    const conversation = 'push-forged';
    // An agent that is given no push URL: no real notification comes in between; and one whose
    // first poll is far away, so that the poll is never queued as a due job.
    const { runId } = await startWaiting(rt, conversation, 'buy_patient');
    const before = await rt.store.load(conversation);
    const taskId = await taskOf(rt, conversation, runId);
    expect(taskId).not.toBe('');
    const forged = await push(
      conversation,
      runId,
      working(taskId, 'hacked', 'x1'),
      'not-the-token',
    );
    expect(forged.status).toBe(401);
    const token = pushToken(PUSH_KEY, conversation, runId);
    const otherTask = await push(conversation, runId, working('another-task', 'hi', 'x2'), token);
    expect(otherTask.status).toBe(404);
    const unknownConversation = await push(
      'nobody',
      runId,
      working(taskId, 'hi', 'x3'),
      pushToken(PUSH_KEY, 'nobody', runId),
    );
    expect(unknownConversation.status).toBe(404);
    expect(await rt.store.load('nobody')).toBeUndefined();
    const malformed = await push(conversation, runId, { nothing: true }, token);
    expect(malformed.status).toBe(400);
    expect((await rt.store.load(conversation))?.version).toBe(before?.version);
    expect(await rt.queuedJobs(conversation)).toEqual([]);
    legacy.finishLong();
  }, 60_000);

  async function taskOf(rt: TestRuntime, conversation: string, runId: string): Promise<string> {
    const head = await rt.store.load(conversation);
    const record = await rt.store.loadRun(conversation, runId, head?.runs[runId] ?? '');
    const data = (record?.data ?? {}) as { runner?: { taskId?: string } };
    return data.runner?.taskId ?? '';
  }

  it('accepts a notification delivered twice and applies it once', async () => {
    const rt = await a2aRuntime();
    const conversation = 'push-twice';
    const { job, runId } = await startWaiting(rt, conversation, 'buy_polled');
    const taskId = await taskOf(rt, conversation, runId);
    const token = pushToken(PUSH_KEY, conversation, runId);
    const body = working(taskId, 'Half way there.', 'progress-1');
    expect((await push(conversation, runId, body, token)).status).toBe(202);
    expect((await push(conversation, runId, body, token)).status).toBe(202);
    const first = await rt.takeJob(conversation, 'agent_update');
    expect(await processJob(first, rt.deps, NEVER)).toBe('done');
    // The queue may have dropped the second as a duplicate; delivered again, it changes nothing.
    expect(await processJob(first, rt.deps, NEVER)).toBe('duplicate');
    expect(await texts(rt, conversation, job.turn_id)).toEqual(['Half way there.']);
    legacy.finishLong();
  }, 30_000);

  it('keeps a message the user sends while a task works, and answers it once the task is over', async () => {
    const rt = await a2aRuntime();
    const conversation = 'push-held';
    const { job } = await startWaiting(rt, conversation, 'buy_legacy');
    // Read when the message comes, and again when the run has reported back.
    rt.llm.reply('start flow buy', 'start flow buy');
    const meanwhile = userMessage(conversation, 'hello again');
    await processJob(meanwhile, rt.deps, NEVER);
    expect(await texts(rt, conversation, meanwhile.turn_id)).toEqual([
      "I'm still working on your request. I'll let you know as soon as it's done.",
    ]);
    legacy.finishLong();
    await rt.drain(async () => (await rt.replies.read(conversation, job.turn_id)).settled);
    expect(await texts(rt, conversation, job.turn_id)).toEqual(
      expect.arrayContaining([
        'The car is in stock.',
        'Stock checked.',
        'Hi! You said: hello again',
      ]),
    );
    const users = (await rt.store.readEvents(conversation)).filter((e) => e.event.event === 'user');
    expect(users.map((e) => (e.event as { text: string }).text)).toEqual([
      'long check',
      'hello again',
    ]);
  }, 30_000);

  it('cancels the remote task when the user cancels the flow of an agent waiting for input', async () => {
    const rt = await a2aRuntime();
    expect(await say(rt, 'cancel', 'order a car', 'start flow buy')).toEqual([
      'Which trim would you like?',
    ]);
    rt.llm.reply('cancel flow');
    const job = userMessage('cancel', 'never mind');
    await processJob(job, rt.deps, NEVER);
    const cancel = (await rt.takeJob('cancel', 'agent_cancel')) as Extract<
      Job,
      { type: 'agent_cancel' }
    >;
    expect(cancel.session?.task_id).toEqual(expect.any(String));
    expect(await processJob(cancel, rt.deps, NEVER)).toBe('done');
    expect(modern.cancelled).toEqual([cancel.session?.task_id]);
    expect(logs.some((line) => line.startsWith('debug A2A task cancelled'))).toBe(true);
  }, 30_000);

  it('ignores a notification that comes after its run is over, however it arrives', async () => {
    const rt = await a2aRuntime();
    const conversation = 'push-late';
    const { job, runId } = await startWaiting(rt, conversation, 'buy_legacy');
    const taskId = await taskOf(rt, conversation, runId);
    legacy.finishLong();
    for (let i = 0; i < 4 && !(await rt.replies.read(conversation, job.turn_id)).settled; i++) {
      await processJob(await rt.takeJob(conversation, 'agent_update'), rt.deps, NEVER);
    }
    const before = await rt.store.load(conversation);
    expect(before?.runs).toEqual({});
    // A progress update the agent sent before it finished, delivered after.
    const token = pushToken(PUSH_KEY, conversation, runId);
    const late = await push(
      conversation,
      runId,
      working(taskId, 'Still checking…', 'late-1'),
      token,
    );
    expect(late.status).toBe(200);
    expect(await late.json()).toEqual({ accepted: false, reason: expect.stringMatching(/over/) });
    expect((await rt.store.load(conversation))?.version).toBe(before?.version);
    expect(await rt.queuedJobs(conversation)).toEqual([]);
    expect(await texts(rt, conversation, job.turn_id)).not.toContain('Still checking…');
  }, 30_000);

  it('gives up on a task that outlasts max_polling_time, cancelling it', async () => {
    const rt = await a2aRuntime({ push: false });
    rt.llm.reply('start flow buy_impatient');
    const job = userMessage('impatient', 'long check');
    await rt.queue.enqueue([job]);
    await rt.drain(async () => (await rt.replies.read('impatient', job.turn_id)).settled);
    expect(await texts(rt, 'impatient', job.turn_id)).toEqual([
      'Checking the stock…',
      INTERNAL_ERROR,
    ]);
    expect(await internalErrorReasons(rt, 'impatient')).toEqual([
      expect.stringContaining('did not finish within max_polling_time (0.3 s)'),
    ]);
    const asked = messages(legacy).map((m) => m.taskId);
    expect(legacy.cancelled).toHaveLength(1);
    expect(legacy.cancelled[0]).not.toBe('');
    expect(asked.length).toBe(1);
    legacy.finishLong();
  }, 30_000);

  it('answers a failed health check with the internal-error pattern and logs why', async () => {
    const rt = await a2aRuntime();
    expect(await say(rt, 'fragile', 'buy', 'start flow buy_fragile')).toEqual([INTERNAL_ERROR]);
    expect(messages(fragile)).toEqual([]);
    expect(logs.some((line) => line.startsWith('error A2A agent failed its health check'))).toBe(
      true,
    );
    expect(await internalErrorReasons(rt, 'fragile')).toEqual([
      expect.stringContaining('the health check failed'),
    ]);
  }, 30_000);

  it('fails the flow when the agent’s task fails', async () => {
    const rt = await a2aRuntime();
    expect(await say(rt, 'failing', 'fail now', 'start flow buy')).toEqual([INTERNAL_ERROR]);
    expect(await internalErrorReasons(rt, 'failing')).toEqual([
      expect.stringContaining('ended failed: Out of stock.'),
    ]);
  }, 30_000);
});
