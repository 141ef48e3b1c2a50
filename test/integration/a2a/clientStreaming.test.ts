import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type Job,
  loadRunState,
  processJob,
  type RuntimeDeps,
} from '../../../src/runtime/index.js';
import { type A2ARuntime, startA2ARuntime } from '../../helpers/a2aRuntime.js';
import { startTestA2AAgent, type TestA2AAgent } from '../../helpers/a2aTestAgent.js';
import {
  internalErrorReasons,
  NEVER,
  runtimeSuite,
  storeWith,
  type TestRuntime,
  userMessage,
} from '../../helpers/runtime.js';

const ANYTHING_ELSE = 'Can I help you with anything else?';
const INTERNAL_ERROR = 'Sorry, something went wrong on my side. Please try again in a moment.';
const STILL_WORKING = "I'm still working on your request. I'll let you know as soon as it's done.";
const PUSH_KEY = 'push-signing-key-for-the-streaming-tests';
const FIVE_STEPS = [1, 2, 3, 4, 5].map((n) => `Step ${n} of 5.`);

/** A 1.0 agent and a 0.3 agent that stream (and offer push), and a 0.3 agent that does neither. */
let v1: TestA2AAgent;
let v03: TestA2AAgent;
let plain: TestA2AAgent;
let plainCard = '';
let plainPushCard = '';
beforeAll(async () => {
  // The SDK's server reports on the console what the tests do on purpose.
  for (const level of ['info', 'warn', 'error'] as const) {
    vi.spyOn(console, level).mockImplementation(() => {});
  }
  v1 = await startTestA2AAgent({ versions: '1.0' });
  v03 = await startTestA2AAgent({ versions: '0.3' });
  plain = await startTestA2AAgent({ versions: '0.3', streaming: false });
  const card = (await (await fetch(plain.cardUrl)).json()) as Record<string, unknown>;
  const withPush = (push: boolean) =>
    JSON.stringify({ ...card, capabilities: { streaming: false, pushNotifications: push } });
  plainCard = withPush(false);
  plainPushCard = withPush(true);
});
afterAll(async () => {
  await Promise.all([v1?.close(), v03?.close(), plain?.close()]);
});

const agentFile = (name: string, card: string, extra = '') => `agent:
  name: ${name}
  protocol: A2A
  description: Sells cars.
configuration:
  agent_card: ${card}
  polling_initial_delay: 0.05
${extra}`;

const flow = (id: string, agent: string) => `  ${id}:
    name: ${id}
    description: Buy a car from ${agent}.
    steps:
      - call: ${agent}
`;

const suite = runtimeSuite(() => ({
  'domain.yml': `responses:
  utter_greet:
    - text: Hello!
`,
  'data/flows.yml': `flows:
${flow('buy_v1', 'shop_v1')}${flow('buy_v03', 'shop_v03')}${flow('buy_polled', 'shop_polled')}${flow(
  'buy_pushed',
  'shop_pushed',
)}${flow('buy_slow', 'shop_slow')}  greet:
    description: Greet the user.
    steps:
      - action: utter_greet
`,
  'sub_agents/shop_v1/config.yml': agentFile('shop_v1', v1.cardUrl),
  'sub_agents/shop_v03/config.yml': agentFile('shop_v03', v03.cardUrl),
  'sub_agents/shop_polled/card.json': plainCard,
  'sub_agents/shop_polled/config.yml': agentFile(
    'shop_polled',
    './sub_agents/shop_polled/card.json',
  ),
  // Pushed: a poll every 20 s in case a notification was lost, and given up after a minute.
  'sub_agents/shop_pushed/card.json': plainPushCard,
  'sub_agents/shop_pushed/config.yml': agentFile(
    'shop_pushed',
    './sub_agents/shop_pushed/card.json',
    '  max_polling_time: 20\n  task_timeout: 60\n',
  ),
  // Polled for up to ten minutes, but given up after a minute; its polls are half a minute apart.
  'sub_agents/shop_slow/card.json': plainCard,
  'sub_agents/shop_slow/config.yml': agentFile(
    'shop_slow',
    './sub_agents/shop_slow/card.json',
    '  max_polling_time: 600\n  polling_initial_delay: 30\n  task_timeout: 60\n',
  ).replace('  polling_initial_delay: 0.05\n', ''),
}));

/** A worker death that happens once. */
class Crash {
  crashed = false;

  once(die: () => void): void {
    if (this.crashed) return;
    this.crashed = true;
    die();
  }
}

/** The runtime's dependencies with a store whose commit dies once, the first time `when` holds. */
function crashingCommit(
  rt: TestRuntime,
  crash: Crash,
  when: (request: CommitRequest) => boolean | undefined,
): RuntimeDeps {
  return {
    ...rt.deps,
    store: storeWith(rt.store, {
      commit: async (request) => {
        if (when(request)) {
          crash.once(() => {
            throw new Error('worker killed');
          });
        }
        return rt.store.commit(request);
      },
    }),
  };
}

type CommitRequest = Parameters<TestRuntime['store']['commit']>[0];

describe('A2A client streaming', () => {
  let served: A2ARuntime | undefined;

  beforeEach(() => {
    for (const agent of [v1, v03, plain]) {
      agent.received.length = 0;
      agent.cancelled.length = 0;
      agent.opened.length = 0;
      agent.onReceive(undefined);
    }
  });
  afterAll(async () => {
    await served?.close();
  });

  async function a2aRuntime(options: { push?: boolean; now?: () => number } = {}) {
    await served?.close();
    served = await startA2ARuntime(suite, {
      pushKey: PUSH_KEY,
      push: options.push === true,
      ...(options.now ? { now: options.now } : {}),
    });
    return served.rt;
  }

  const texts = async (rt: TestRuntime, conversation: string, turnId: string) =>
    (await rt.replies.read(conversation, turnId)).messages.map((m) => m.message.text);

  /** A message, run by worker loops until its turn has settled. */
  async function say(rt: TestRuntime, conversation: string, text: string, ...commands: string[]) {
    rt.llm.reply(...commands);
    const job = userMessage(conversation, text);
    await rt.queue.enqueue([job]);
    await rt.drain(async () => (await rt.replies.read(conversation, job.turn_id)).settled);
    return texts(rt, conversation, job.turn_id);
  }

  /** A message whose turn starts a run; its steps are then run one by one. */
  async function send(rt: TestRuntime, conversation: string, text: string, command = '') {
    rt.llm.reply(command);
    const job = userMessage(conversation, text);
    await processJob(job, rt.deps, NEVER);
    return job;
  }

  /**
   * Runs the conversation's steps one at a time until `done` holds (or `count` steps). A short
   * budget: a step that reads a stream stops soon after the agent falls silent. A step that
   * throws (its worker died) runs again, as the queue would deliver it again.
   */
  async function steps(
    rt: TestRuntime,
    conversation: string,
    done: () => Promise<boolean>,
    options: {
      count?: number;
      deps?: RuntimeDeps;
      signal?: () => AbortSignal;
      before?: () => void;
    } = {},
  ): Promise<void> {
    for (let i = 0; i < (options.count ?? Infinity) && !(await done()); i++) {
      if (i === 30) throw new Error(`${conversation}: still not done after 30 steps`);
      options.before?.();
      const step = await rt.takeStep(conversation);
      const deps = options.deps ?? rt.deps;
      const budget = () => ({ deadline: Date.now() + 3000 });
      try {
        await processJob(step, deps, options.signal?.() ?? NEVER, budget());
      } catch {
        await processJob(step, deps, NEVER, budget());
      }
    }
  }

  const never = async () => false;

  /** The next step of the conversation's run, as the queue delivers it once it is due. */
  async function dueStep(rt: TestRuntime, conversation: string): Promise<Job> {
    const head = await rt.store.load(conversation);
    const [runId, pointer] = Object.entries(head?.runs ?? {})[0] ?? [];
    const run = runId && pointer && (await loadRunState(rt.store, conversation, runId, pointer));
    if (!runId || !run) throw new Error(`no run of ${conversation} goes on`);
    return {
      type: 'agent_step',
      id: `${runId}#${run.steps}`,
      conversation_id: conversation,
      turn_id: run.turnId,
      frame_id: run.frameId,
      run_id: runId,
      step: run.steps,
    };
  }

  const settled = (rt: TestRuntime, conversation: string, job: Job) => async () =>
    (await rt.replies.read(conversation, job.turn_id)).settled;

  const answers = (agent: TestA2AAgent, text: string) =>
    agent.received.filter((m) => m.text === text);

  for (const [version, flowId, agent] of [
    ['1.0', 'buy_v1', () => v1],
    ['0.3', 'buy_v03', () => v03],
  ] as const) {
    it(`answers a continued task whose stream opens with the task still asking, then sends an artifact and completes, over A2A ${version}`, async () => {
      const rt = await a2aRuntime();
      const conversation = `snapshot-${version}`;
      expect(await say(rt, conversation, 'order a car', `start flow ${flowId}`)).toEqual([
        'Which trim would you like?',
      ]);
      expect(await say(rt, conversation, 'sport', '')).toEqual([
        'Ordered the sport trim.',
        ANYTHING_ELSE,
      ]);
      expect(answers(agent(), 'sport')).toHaveLength(1);
      expect(agent().opened).toHaveLength(1);
    }, 60_000);
  }

  for (const [path, flowId, agent] of [
    ['a stream', 'buy_v1', () => v1],
    ['a send without a stream, then polls', 'buy_polled', () => plain],
  ] as const) {
    it(`does not take a task that still shows the question for its answer, over ${path}`, async () => {
      const rt = await a2aRuntime();
      const conversation = `still-asking-${flowId}`;
      expect(await say(rt, conversation, 'order a car', `start flow ${flowId}`)).toEqual([
        'Which trim would you like?',
      ]);
      // The agent shows the task as it was, still asking, and works on the answer only later:
      // the message, a poll or the stream read again, and a poll find it so.
      const answer = await send(rt, conversation, 'later sport');
      await steps(rt, conversation, never, { count: 3 });
      expect(await texts(rt, conversation, answer.turn_id)).toEqual([]);
      expect(Object.keys((await rt.store.load(conversation))?.runs ?? {})).toHaveLength(1);
      agent().finishLong();
      await rt.drain(settled(rt, conversation, answer));
      expect(await texts(rt, conversation, answer.turn_id)).toEqual([
        'Ordered the sport trim.',
        ANYTHING_ELSE,
      ]);
    }, 60_000);

    it(`asks the new question of a continued task, not the one its answer was sent to, over ${path}`, async () => {
      const rt = await a2aRuntime();
      const conversation = `asks-again-${flowId}`;
      await say(rt, conversation, 'order a car', `start flow ${flowId}`);
      expect(await say(rt, conversation, 'again', '')).toEqual(['Which colour would you like?']);
      expect(await say(rt, conversation, 'red', '')).toEqual([
        'Ordered the red trim.',
        ANYTHING_ELSE,
      ]);
      expect(agent().opened).toHaveLength(1);
    }, 60_000);

    it(`shows every progress message once and in order, those said while no step read the task too, over ${path}`, async () => {
      const rt = await a2aRuntime();
      const conversation = `progress-${flowId}`;
      const job = await send(rt, conversation, 'chatty', `start flow ${flowId}`);
      const shown = (text: string) => async () =>
        (await texts(rt, conversation, job.turn_id)).includes(text);
      await steps(rt, conversation, shown('Step 1 of 5.'));
      // Steps 2 to 4 come while the run waits between two steps.
      agent().finishLong();
      await steps(rt, conversation, shown('Step 4 of 5.'));
      agent().finishLong();
      await steps(rt, conversation, settled(rt, conversation, job));
      expect(await texts(rt, conversation, job.turn_id)).toEqual([
        ...FIVE_STEPS,
        'All five steps done.',
        ANYTHING_ELSE,
      ]);
      const bots = (await rt.store.readEvents(conversation)).filter((e) => e.event.event === 'bot');
      expect(bots.map((e) => (e.event as { text?: string }).text)).toEqual([
        ...FIVE_STEPS,
        'All five steps done.',
        ANYTHING_ELSE,
      ]);
    }, 60_000);
  }

  for (const [path, flowId, push] of [
    ['for a push', 'buy_pushed', true],
    ['polling', 'buy_slow', false],
  ] as const) {
    it(`gives up on a task that never finishes at task_timeout while waiting ${path}: cancels it, fails the flow, answers the message it held and writes no more run records`, async () => {
      let clock = Date.now();
      const rt = await a2aRuntime({ push, now: () => clock });
      const conversation = `timeout-${flowId}`;
      const job = await send(rt, conversation, 'long check', `start flow ${flowId}`);
      expect(await processJob(await dueStep(rt, conversation), rt.deps, NEVER)).toBe('done');
      const meanwhile = userMessage(conversation, 'hi there');
      // Read when the message comes, and again when the run has ended.
      rt.llm.reply('start flow greet', 'start flow greet');
      await processJob(meanwhile, rt.deps, NEVER);
      expect(await texts(rt, conversation, meanwhile.turn_id)).toEqual([STILL_WORKING]);

      // A minute later the next step finds the task still working. (The queue holds it for real
      // seconds; it is run as it would be delivered once due.)
      clock += 61_000;
      expect(await processJob(await dueStep(rt, conversation), rt.deps, NEVER)).toBe('done');
      expect(await texts(rt, conversation, job.turn_id)).toEqual([
        'Checking the stock…',
        INTERNAL_ERROR,
        'Hello!',
        ANYTHING_ELSE,
      ]);
      expect(await internalErrorReasons(rt, conversation)).toEqual([
        expect.stringContaining('did not finish within task_timeout (60 s)'),
      ]);
      expect(plain.cancelled).toEqual(plain.opened);
      expect(plain.opened).toHaveLength(1);
      // The run is over: nothing more of it is queued (what is, it has run already).
      const head = await rt.store.load(conversation);
      expect(head?.runs).toEqual({});
      for (const queue of [rt.jobsQueueUrl, rt.delayQueueUrl]) {
        for (const queued of await rt.queuedJobs(conversation, queue)) {
          expect(head?.recentJobs).toContain(queued.id);
        }
      }
      plain.finishLong();
    }, 60_000);
  }

  /**
   * Where a worker dies in a streaming exchange that answers a task: `arm` sets the crash up on
   * the runtime's dependencies (and the agent), and the step that dies runs again.
   */
  const CRASHES: readonly {
    point: string;
    arm: (rt: TestRuntime, crash: Crash) => { deps?: RuntimeDeps; signal?: () => AbortSignal };
  }[] = [
    {
      point: 'the agent has the answer, the stream has said nothing yet',
      arm: (_rt, crash) => {
        let controller = new AbortController();
        v1.onReceive(() => crash.once(() => controller.abort(new Error('worker killed'))));
        return {
          signal: () => {
            controller = new AbortController();
            return controller.signal;
          },
        };
      },
    },
    {
      point: 'the stream named the task, the step did not commit',
      arm: (rt, crash) => ({
        deps: crashingCommit(rt, crash, (request) => request.head.outbox?.job_id.endsWith('#0')),
      }),
    },
    {
      point: 'the answer was read, the step did not commit',
      arm: (rt, crash) => ({
        deps: crashingCommit(rt, crash, (request) => Object.keys(request.head.runs).length === 0),
      }),
    },
    {
      point: 'the answer was committed, not delivered',
      arm: (rt, crash) => ({
        deps: {
          ...rt.deps,
          output: {
            deliver: async (batch: Parameters<typeof rt.replies.deliver>[0]) => {
              if (batch.messages.some((m) => m.message.text?.startsWith('Ordered'))) {
                crash.once(() => {
                  throw new Error('worker killed');
                });
              }
              return rt.replies.deliver(batch);
            },
          },
        },
      }),
    },
  ];

  for (const [i, { point, arm }] of CRASHES.entries()) {
    it(`starts no second task and says everything once when a worker dies while an answer streams: ${point}`, async () => {
      const rt = await a2aRuntime();
      const conversation = `crash-${i}`;
      await say(rt, conversation, 'order a car', 'start flow buy_v1');
      const answer = await send(rt, conversation, 'later sport');
      const crash = new Crash();
      await steps(rt, conversation, settled(rt, conversation, answer), {
        ...arm(rt, crash),
        // The agent works on the answer once the first step has sent it.
        before: () => v1.finishLong(),
      });
      expect(crash.crashed).toBe(true);
      expect(answers(v1, 'later sport')).toHaveLength(1);
      expect(v1.opened).toHaveLength(1);
      expect(await texts(rt, conversation, answer.turn_id)).toEqual([
        'Ordered the sport trim.',
        ANYTHING_ELSE,
      ]);
      expect(await internalErrorReasons(rt, conversation)).toEqual([]);
    }, 60_000);
  }

  it('starts no second task when a worker dies reading the stream of a task its first step named', async () => {
    const rt = await a2aRuntime();
    const conversation = 'crash-new-task';
    const job = await send(rt, conversation, 'chatty', 'start flow buy_v1');
    const crash = new Crash();
    await steps(rt, conversation, settled(rt, conversation, job), {
      deps: crashingCommit(rt, crash, (request) => request.head.outbox?.job_id.endsWith('#1')),
      before: () => v1.finishLong(),
    });
    expect(crash.crashed).toBe(true);
    expect(answers(v1, 'chatty')).toHaveLength(1);
    expect(v1.opened).toHaveLength(1);
    expect(await texts(rt, conversation, job.turn_id)).toEqual([
      ...FIVE_STEPS,
      'All five steps done.',
      ANYTHING_ELSE,
    ]);
  }, 60_000);

  it('answers a message held while a run worked when the user cancels the run’s flow', async () => {
    const rt = await a2aRuntime();
    const conversation = 'held-cancel';
    await send(rt, conversation, 'long check', 'start flow buy_polled');
    await steps(rt, conversation, never, { count: 1 });
    rt.llm.reply('start flow greet');
    await processJob(userMessage(conversation, 'hi there'), rt.deps, NEVER);
    rt.llm.reply('cancel flow', 'start flow greet');
    const cancel = userMessage(conversation, 'stop that');
    await processJob(cancel, rt.deps, NEVER);
    expect(await texts(rt, conversation, cancel.turn_id)).toEqual([
      "All right, I've stopped buy_polled.",
      'Hello!',
      ANYTHING_ELSE,
    ]);
    const cancelled = await rt.takeJob(conversation, 'agent_cancel');
    await processJob(cancelled, rt.deps, NEVER);
    expect(plain.cancelled).toEqual(plain.opened);
    plain.finishLong();
  }, 60_000);
});
