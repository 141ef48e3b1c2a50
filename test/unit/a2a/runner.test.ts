import { describe, expect, it } from 'vitest';
import { A2AAgent, A2ARunner, type A2ARunnerOptions } from '../../../src/a2a/index.js';
import type { A2ARunData } from '../../../src/a2a/runData.js';
import type {
  A2ASubAgent,
  AgentInput,
  AgentOutput,
  Assistant,
  SubAgent,
} from '../../../src/assistant/index.js';
import type { StepContext } from '../../../src/runtime/index.js';
import { SILENT_LOGGER } from '../../helpers/logger.js';

const NOW = 1_800_000_000_000;
const ENDPOINT = 'https://shop.example.com/a2a';

const shop: A2ASubAgent = {
  name: 'shop',
  description: 'Sells cars.',
  dir: 'sub_agents/shop',
  protocol: 'A2A',
  agentCard: {
    kind: 'file',
    file: 'shop_card.json',
    card: {
      name: 'shop',
      description: 'Sells cars.',
      version: '1.0.0',
      supportedInterfaces: [
        { url: ENDPOINT, protocolBinding: 'JSONRPC', protocolVersion: '1.0', tenant: '' },
      ],
      capabilities: { streaming: false, pushNotifications: false },
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
      skills: [],
    },
  },
  configuration: {
    agent_card: 'shop_card.json',
    max_polling_time: 60,
    polling_initial_delay: 0.5,
    task_timeout: 600,
    max_retries: 0,
  },
};

const helper = {
  name: 'helper',
  description: 'Helps.',
  dir: 'sub_agents/helper',
  protocol: 'RASA',
  configuration: {},
  mcpServers: [],
} as unknown as SubAgent;

const assistant = { agents: { shop, helper } } as unknown as Assistant;

const input = (metadata: Record<string, unknown> = {}): AgentInput => ({
  id: 'in-1',
  userMessage: 'The Touring',
  slots: [],
  conversationHistory: '',
  events: [],
  metadata,
  timestamp: '2026-12-02T10:00:00.000Z',
});

interface Rpc {
  readonly method: string;
  readonly params: Record<string, unknown>;
}

/** What the agent answers a JSON-RPC call: a result, an HTTP response, or a thrown failure. */
type Answer = (rpc: Rpc, init: RequestInit | undefined) => unknown;

const agentMessage = (text: string) => ({
  message: { messageId: 'a-1', role: 'ROLE_AGENT', parts: [{ text }] },
});
const task = (state: string, text?: string) => ({
  id: 't-1',
  contextId: 'c-1',
  status: {
    state,
    ...(text ? { message: { messageId: 's-1', role: 'ROLE_AGENT', parts: [{ text }] } } : {}),
  },
});
const isHealthCheck = (rpc: Rpc) =>
  (rpc.params.message as { metadata?: { health_check?: boolean } } | undefined)?.metadata
    ?.health_check === true;

/** An A2A 1.0 JSON-RPC agent in process: the health check is answered, the rest by `answer`. */
function fakeAgent(answer: Answer, health: Answer = () => agentMessage('ok')) {
  const calls: Rpc[] = [];
  const fetch: typeof globalThis.fetch = async (url, init) => {
    if (String(url) !== ENDPOINT) return new Response('not here', { status: 404 });
    const body = JSON.parse(String(init?.body)) as Rpc & { id: number };
    const rpc = { method: body.method, params: body.params };
    calls.push(rpc);
    const result = await (isHealthCheck(rpc) ? health : answer)(rpc, init);
    if (result instanceof Response) return result;
    return Response.json({ jsonrpc: '2.0', id: body.id, result });
  };
  const sent = () => calls.filter((c) => !isHealthCheck(c)).map((c) => c.method);
  const checks = () => calls.filter(isHealthCheck).length;
  return { fetch, calls, sent, checks };
}

function logged() {
  const lines: string[] = [];
  const record =
    (level: string) =>
    (message: string, fields: Record<string, unknown> = {}) =>
      lines.push(`${level} ${message} ${JSON.stringify(fields)}`);
  return {
    lines,
    logger: {
      ...SILENT_LOGGER,
      debug: record('debug'),
      warn: record('warn'),
      error: record('error'),
    },
  };
}

const context = (extra: Partial<StepContext> = {}): StepContext => ({
  conversationId: 'alice',
  runId: 'run-1',
  signal: new AbortController().signal,
  ...extra,
});

const started = (runner: A2ARunner, metadata: Record<string, unknown> = {}): A2ARunData =>
  runner.start({
    agent: shop,
    frameId: 'frame-1',
    input: input(metadata),
    resumed: false,
    restarted: false,
  });

const waiting = (extra: Partial<A2ARunData> = {}): A2ARunData => ({
  agentId: 'shop',
  messageId: 'msg-in-1',
  taskId: 't-1',
  polls: 0,
  push: false,
  shown: [],
  waitingSince: NOW,
  ...extra,
});

/** A runner over the test project, without secrets, whose agent answers through `fetch`. */
function runnerOn(
  fetch: typeof globalThis.fetch | undefined,
  options: Partial<A2ARunnerOptions> = {},
): A2ARunner {
  return new A2ARunner({
    assistant,
    secrets: { get: async () => '' },
    ...(fetch ? { fetch } : {}),
    ...options,
  });
}
describe('A2ARunner.start', () => {
  it('keeps the input and names the message after it, with nothing asked or shown', () => {
    const runner = runnerOn(undefined);
    expect(started(runner)).toStrictEqual({
      agentId: 'shop',
      input: input(),
      messageId: 'msg-in-1',
      polls: 0,
      push: false,
      shown: [],
    });
  });

  it('remembers the question the input answers as asked and already shown', () => {
    const runner = runnerOn(undefined);
    const data = started(runner, { question_id: 'q-7' });
    expect(data.asked).toBe('q-7');
    expect(data.shown).toEqual(['q-7']);
  });
});

describe('A2ARunner.step', () => {
  it('checks the agent once, sends the message, and finishes with its answer', async () => {
    const agent = fakeAgent(() => agentMessage('Ordered.'));
    const runner = runnerOn(agent.fetch, { now: () => NOW });
    const first = await runner.step(started(runner), context());
    expect(first.next).toEqual({
      type: 'done',
      output: {
        id: 'run-1',
        status: 'completed',
        responseMessage: 'Ordered.',
        metadata: {},
      },
    });
    expect(first.data.input).toBeUndefined();
    await runner.step(started(runner), context({ runId: 'run-2' }));
    expect(agent.checks()).toBe(1);
    expect(agent.sent()).toEqual(['SendMessage', 'SendMessage']);
  });

  it('waits for a working task from the moment its clock says the message went out', async () => {
    const agent = fakeAgent(() => ({ task: task('TASK_STATE_WORKING') }));
    const runner = runnerOn(agent.fetch, { now: () => NOW });
    const result = await runner.step(started(runner), context());
    expect(result.data).toMatchObject({ taskId: 't-1', waitingSince: NOW, polls: 0 });
    expect(result.next).toEqual({ type: 'continue', delayMs: 500 });
  });

  it('follows the task up once the message is sent', async () => {
    const agent = fakeAgent(() => task('TASK_STATE_COMPLETED', 'Done.'));
    const runner = runnerOn(agent.fetch, { now: () => NOW });
    const result = await runner.step(waiting(), context());
    expect(agent.sent()).toEqual(['GetTask']);
    expect(agent.calls.at(-1)?.params).toMatchObject({ id: 't-1' });
    expect(result.next).toMatchObject({
      type: 'done',
      output: { status: 'completed', responseMessage: 'Done.' },
    });
  });

  it('cancels the task at the agent when it outlasts task_timeout', async () => {
    const agent = fakeAgent((rpc) =>
      rpc.method === 'GetTask' ? task('TASK_STATE_WORKING') : task('TASK_STATE_CANCELED'),
    );
    const runner = runnerOn(agent.fetch, { now: () => NOW });
    const result = await runner.step(waiting({ waitingSince: NOW - 600_000 }), context());
    expect(agent.sent()).toEqual(['GetTask', 'CancelTask']);
    expect(agent.calls.at(-1)?.params).toEqual({ id: 't-1' });
    expect(result.next).toMatchObject({
      type: 'done',
      output: {
        status: 'fatal_error',
        errorMessage: "the agent's task did not finish within task_timeout (600 s)",
      },
    });
  });

  it('hands the answer to the agent’s own class, made once for the agent', async () => {
    let made = 0;
    class Shop extends A2AAgent {
      constructor(config: A2ASubAgent) {
        super(config);
        made += 1;
      }
      override async processOutput(output: AgentOutput): Promise<AgentOutput> {
        return { ...output, responseMessage: `Shop: ${output.responseMessage}` };
      }
    }
    const agent = fakeAgent(() => agentMessage('Ordered.'));
    const runner = runnerOn(agent.fetch, { classes: { shop: Shop } });
    const first = await runner.step(started(runner), context());
    await runner.step(started(runner), context());
    expect(first.next).toMatchObject({ output: { responseMessage: 'Shop: Ordered.' } });
    expect(made).toBe(1);
  });

  it('fails the run, logging why, when the agent fails its health check', async () => {
    const agent = fakeAgent(
      () => agentMessage('unused'),
      () => ({ task: task('TASK_STATE_FAILED', 'the agent is broken') }),
    );
    const { lines, logger } = logged();
    const runner = runnerOn(agent.fetch, { logger });
    const data = started(runner);
    const result = await runner.step(data, context());
    const reason = "A2A agent shop: the agent's task ended failed: the agent is broken";
    expect(result.next).toEqual({
      type: 'done',
      output: {
        id: 'msg-in-1',
        status: 'fatal_error',
        errorMessage: `the health check failed: ${reason}`,
      },
    });
    expect(result.data).toEqual(data);
    expect(agent.sent()).toEqual([]);
    expect(lines).toEqual([
      `error A2A agent failed its health check ${JSON.stringify({ agent: 'shop', reason })}`,
    ]);
  });

  it('gives a health check that cannot finish within the job’s deadline up', async () => {
    const hanging: Answer = (_rpc, init) =>
      new Promise((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
      });
    const agent = fakeAgent(() => agentMessage('unused'), hanging);
    const runner = runnerOn(agent.fetch, { now: () => NOW });
    const result = await runner.step(started(runner), context({ deadline: NOW }));
    expect(result.next).toMatchObject({
      type: 'done',
      output: { errorMessage: 'the health check failed: A2A agent shop: the request timed out' },
    });
  });

  it('tries again later, after the wait the agent asks for, when it is unavailable', async () => {
    const agent = fakeAgent(
      () => new Response('busy', { status: 503, headers: { 'retry-after': '10' } }),
    );
    const runner = runnerOn(agent.fetch, { now: () => NOW });
    const data = started(runner);
    const result = await runner.step(data, context());
    expect(result).toEqual({
      data,
      next: {
        type: 'retry',
        reason: 'A2A agent shop: the agent answered HTTP 503',
        retryAfterMs: 10_000,
      },
    });
  });

  it('tries again later without a wait when the agent names none', async () => {
    const agent = fakeAgent(() => new Response('busy', { status: 503 }));
    const runner = runnerOn(agent.fetch, { now: () => NOW });
    const result = await runner.step(started(runner), context());
    expect(result.next).toStrictEqual({
      type: 'retry',
      reason: 'A2A agent shop: the agent answered HTTP 503',
    });
  });

  it('fails the run, logging why, when the agent refuses the message', async () => {
    const agent = fakeAgent(() => new Response('no', { status: 400 }));
    const { lines, logger } = logged();
    const runner = runnerOn(agent.fetch, { logger });
    const result = await runner.step(started(runner), context());
    const reason = 'A2A agent shop: the agent answered HTTP 400';
    expect(result.next).toEqual({
      type: 'done',
      output: { id: 'msg-in-1', status: 'fatal_error', errorMessage: reason },
    });
    expect(lines).toEqual([
      `error A2A exchange failed ${JSON.stringify({ agent: 'shop', reason })}`,
    ]);
  });

  it('fails the run all the same when no logger is given', async () => {
    const agent = fakeAgent(() => new Response('no', { status: 400 }));
    const runner = runnerOn(agent.fetch);
    const result = await runner.step(started(runner), context());
    expect(result.next).toMatchObject({
      type: 'done',
      output: { errorMessage: 'A2A agent shop: the agent answered HTTP 400' },
    });
  });

  it('lets a cancelled job end the step, whether it was checking or sending', async () => {
    const checking = new AbortController();
    const refusing = fakeAgent(
      () => agentMessage('unused'),
      () => {
        checking.abort();
        return new Response('no', { status: 400 });
      },
    );
    const first = runnerOn(refusing.fetch);
    await expect(
      first.step(started(first), context({ signal: checking.signal })),
    ).rejects.toBeDefined();

    const sending = new AbortController();
    const agent = fakeAgent(() => {
      sending.abort();
      return new Response('no', { status: 400 });
    });
    const second = runnerOn(agent.fetch);
    await expect(
      second.step(started(second), context({ signal: sending.signal })),
    ).rejects.toBeDefined();
  });

  it('stops waiting for the agent’s answer when the job is cancelled', async () => {
    const controller = new AbortController();
    const agent = fakeAgent(
      (_rpc, init) =>
        new Promise((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
          controller.abort();
        }),
    );
    const runner = runnerOn(agent.fetch);
    await expect(
      runner.step(started(runner), context({ signal: controller.signal })),
    ).rejects.toBeDefined();
    expect(agent.sent()).toEqual(['SendMessage']);
  });

  it('refuses a run of an agent that is not an A2A agent of the assistant', async () => {
    const runner = runnerOn(undefined);
    await expect(runner.step(waiting({ agentId: 'helper' }), context())).rejects.toThrow(
      'helper is not an A2A agent of this assistant',
    );
    await expect(runner.step(waiting({ agentId: 'nobody' }), context())).rejects.toThrow(
      'nobody is not an A2A agent of this assistant',
    );
  });
});

describe('A2ARunner.cancel', () => {
  const scope = () => ({ signal: new AbortController().signal });

  it('cancels the run’s task, and logs it', async () => {
    const agent = fakeAgent(() => task('TASK_STATE_CANCELED'));
    const { lines, logger } = logged();
    const runner = runnerOn(agent.fetch, { logger });
    await runner.cancel({ agent: shop, conversationId: 'alice', data: waiting() }, scope());
    expect(agent.calls).toEqual([{ method: 'CancelTask', params: { id: 't-1' } }]);
    expect(lines).toEqual([
      `debug A2A task cancelled ${JSON.stringify({ agent: 'shop', taskId: 't-1' })}`,
    ]);
  });

  it('cancels the task a waiting agent kept when there is no run', async () => {
    const agent = fakeAgent(() => task('TASK_STATE_CANCELED'));
    const runner = runnerOn(agent.fetch);
    await runner.cancel(
      { agent: shop, conversationId: 'alice', session: { task_id: 't-9' } },
      scope(),
    );
    expect(agent.calls).toEqual([{ method: 'CancelTask', params: { id: 't-9' } }]);
  });

  it('asks nothing and logs nothing when there is no task, or the agent is not an A2A agent', async () => {
    const agent = fakeAgent(() => task('TASK_STATE_CANCELED'));
    const { lines, logger } = logged();
    const runner = runnerOn(agent.fetch, { logger });
    await runner.cancel(
      { agent: shop, conversationId: 'alice', data: waiting({ taskId: undefined }) },
      scope(),
    );
    await runner.cancel({ agent: shop, conversationId: 'alice', session: {} }, scope());
    await runner.cancel({ agent: helper, conversationId: 'alice', data: waiting() }, scope());
    expect(agent.calls).toEqual([]);
    expect(lines).toEqual([]);
  });

  it('warns, giving the reason, when the agent does not cancel', async () => {
    const agent = fakeAgent(() => new Response('no', { status: 400 }));
    const { lines, logger } = logged();
    const runner = runnerOn(agent.fetch, { logger });
    await runner.cancel({ agent: shop, conversationId: 'alice', data: waiting() }, scope());
    expect(lines).toEqual([
      `warn A2A task could not be cancelled ${JSON.stringify({
        agent: 'shop',
        taskId: 't-1',
        reason: 'A2A agent shop: the agent answered HTTP 400',
      })}`,
    ]);
  });

  it('gives up on a cancel the agent refuses, quietly when no logger is given', async () => {
    const agent = fakeAgent(() => new Response('no', { status: 400 }));
    const runner = runnerOn(agent.fetch);
    await expect(
      runner.cancel(
        { agent: shop, conversationId: 'alice', data: waiting() },
        { signal: new AbortController().signal },
      ),
    ).resolves.toBeUndefined();
    expect(agent.sent()).toEqual(['CancelTask']);
  });

  it('lets a cancelled job end a cancel that fails', async () => {
    const controller = new AbortController();
    const agent = fakeAgent(() => {
      controller.abort();
      return new Response('no', { status: 400 });
    });
    const runner = runnerOn(agent.fetch);
    await expect(
      runner.cancel(
        { agent: shop, conversationId: 'alice', data: waiting() },
        { signal: controller.signal },
      ),
    ).rejects.toBeDefined();
  });
});
