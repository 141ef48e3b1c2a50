import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ActionServerError,
  ActionServerUnavailableError,
  actionServerActions,
  IDEMPOTENCY_HEADER,
  PythonActionError,
  projectActions,
  RASA_VERSION,
} from '../../../src/actionServer/index.js';
import type { Assistant } from '../../../src/assistant/index.js';
import type { ActionPort } from '../../../src/dialogue/index.js';
import { assistantFrom } from '../../helpers/dialogue.js';
import {
  answer,
  FakeActionServer,
  refusedUrl,
  utterMessage,
} from '../../helpers/fakeActionServer.js';
import { SILENT_LOGGER } from '../../helpers/logger.js';
import { secretsOf } from '../mcp/fixtures.js';
import { ACTION_TOKEN, actionContext, bankProject } from './fixtures.js';

const secrets = secretsOf({ ACTION_TOKEN });

describe('custom actions on a Rasa action server', () => {
  let server: FakeActionServer;
  let assistant: Assistant;
  let actions: ActionPort;
  const logs: string[] = [];
  const logger = {
    ...SILENT_LOGGER,
    warn: (m: string, f: Record<string, unknown>) => logs.push(`warn ${m} ${JSON.stringify(f)}`),
    error: (m: string, f: Record<string, unknown>) => logs.push(`error ${m} ${JSON.stringify(f)}`),
  };

  beforeAll(async () => {
    server = await FakeActionServer.start();
    assistant = await assistantFrom(bankProject(server.url));
    actions = actionServerActions({ assistant, secrets, logger });
  });

  afterAll(async () => {
    await server?.close();
  });

  it('are the domain actions no TypeScript function, response or built-in defines', () => {
    expect(actions.has('action_check_balance')).toBe(true);
    expect(actions.has('validate_amount')).toBe(true);
    expect(actions.has('utter_balance')).toBe(false);
    expect(actions.has('action_restart')).toBe(false);
    expect(actions.has('action_unknown')).toBe(false);
  });

  it('send the request a Rasa action server reads: action, tracker, domain, version, token and headers', async () => {
    server.action('action_check_balance', () => answer());
    await actions.run('action_check_balance', actionContext());
    const call = server.callsOf('action_check_balance').at(-1);
    expect(call?.path).toBe('/webhook');
    expect(call?.query).toEqual({ token: ACTION_TOKEN });
    expect(call?.headers['x-api']).toBe('abc');
    expect(call?.headers['content-type']).toBe('application/json');
    expect(call?.headers[IDEMPOTENCY_HEADER.toLowerCase()]).toMatch(/^[\w-]{32}$/);

    const body = call?.body;
    expect(body).toMatchObject({
      next_action: 'action_check_balance',
      sender_id: 'ada',
      version: RASA_VERSION,
      domain_digest: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(body.tracker).toMatchObject({
      sender_id: 'ada',
      slots: { balance: null, account: 'savings', amount: null },
      latest_message: {
        text: '/check_balance',
        intent: { name: 'check_balance', confidence: 1 },
        entities: [],
        commands: [{ command: 'start flow', flow: 'check_balance' }],
        metadata: { client: 'web' },
      },
      latest_event_time: 104,
      followup_action: null,
      paused: false,
      active_loop: {},
      latest_action_name: 'action_listen',
      latest_input_channel: 'rest',
      stack: [
        {
          type: 'flow',
          frame_id: 'f1',
          flow_id: 'check_balance',
          step_id: '0_action_check_balance',
          frame_type: 'regular',
        },
      ],
    });
    expect(body.tracker.events.map((e: { event: string }) => e.event)).toEqual([
      'user',
      'bot',
      'user',
      'flow_started',
      'slot',
    ]);
    expect(body.tracker.events[0]).toMatchObject({
      event: 'user',
      timestamp: 100,
      text: 'hi',
      parse_data: { text: 'hi', intent: { name: null }, entities: [] },
      input_channel: 'rest',
    });
    expect(body.tracker.events[1]).toMatchObject({
      event: 'bot',
      text: 'Hi! How can I help?',
      data: { buttons: null, image: null, custom: null },
    });
    expect(body.tracker.events[4]).toEqual({
      event: 'slot',
      timestamp: 104,
      name: 'account',
      value: 'savings',
    });
    expect(body.domain).toMatchObject({
      intents: ['check_balance'],
      actions: [
        'action_check_balance',
        'action_transfer',
        'action_fetch_profile',
        'validate_amount',
      ],
      slots: {
        balance: { type: 'float', initial_value: null },
        account: { type: 'text', initial_value: 'checking' },
      },
      responses: { utter_balance: [{ text: 'Your {account} balance is {balance}.' }] },
    });
  });

  it('keep the idempotency key of a call and change it for another call', async () => {
    server.action('action_check_balance', () => answer());
    await actions.run('action_check_balance', actionContext());
    await actions.run('action_check_balance', actionContext());
    await actions.run('action_check_balance', actionContext({ callKey: 'turn-2|f1|x|0' }));
    await actions.run('action_check_balance', actionContext({ callKey: undefined }));
    const keys = server
      .callsOf('action_check_balance')
      .slice(-4)
      .map((c) => c.headers[IDEMPOTENCY_HEADER.toLowerCase()]);
    expect(keys[0]).toBe(keys[1]);
    expect(keys[2]).not.toBe(keys[0]);
    expect(keys[3]).toBeUndefined();
  });

  it('read slot events, bot events and responses by text and by domain response name', async () => {
    server.action('action_check_balance', () =>
      answer(
        [
          { event: 'slot', timestamp: null, name: 'balance', value: 42.5 },
          { event: 'slot', timestamp: null, name: 'not_a_slot', value: 1 },
          { event: 'bot', text: 'From an event', data: { buttons: [], custom: null } },
          { event: 'pause', timestamp: null },
          { event: 'followup', name: 'utter_balance' },
        ],
        [
          utterMessage({ text: 'Checking…' }),
          utterMessage({ response: 'utter_greet_user', name: 'Ada' }),
          utterMessage({ image: 'https://example.com/card.png', attachment: 'statement.pdf' }),
        ],
      ),
    );
    const result = await actions.run('action_check_balance', actionContext());
    expect(result).toEqual({
      slots: { balance: 42.5 },
      responses: [
        { message: { text: 'Checking…' } },
        { name: 'utter_greet_user', variables: { name: 'Ada' } },
        {
          message: {
            image: 'https://example.com/card.png',
            custom: { attachment: 'statement.pdf' },
          },
        },
        { message: { text: 'From an event' } },
      ],
      followup: 'utter_balance',
    });
    expect(logs.join('\n')).toContain('slot event for unknown slot not_a_slot');
    expect(logs.join('\n')).toContain('pause event');
  });

  it('read reset_slots and restart, which forget the slot events before them', async () => {
    server.action('action_check_balance', () =>
      answer([
        { event: 'slot', name: 'balance', value: 1 },
        { event: 'reset_slots' },
        { event: 'slot', name: 'account', value: 'joint' },
      ]),
    );
    expect(await actions.run('action_check_balance', actionContext())).toEqual({
      slots: { account: 'joint' },
      resetSlots: true,
    });
    server.action('action_check_balance', () =>
      answer([{ event: 'slot', name: 'balance', value: 1 }, { event: 'restart' }]),
    );
    expect(await actions.run('action_check_balance', actionContext())).toEqual({ restart: true });
  });

  it('take a 400 answer as the action declining to run, with its reason', async () => {
    server.next({
      status: 400,
      body: { error: 'Amount exceeds the limit', action_name: 'action_transfer' },
    });
    expect(await actions.run('action_transfer', actionContext())).toEqual({
      rejected: 'Amount exceeds the limit',
    });
  });

  it('take an action_execution_rejected event as the action declining to run', async () => {
    server.action('action_check_balance', () =>
      answer([
        { event: 'slot', name: 'balance', value: 1 },
        { event: 'action_execution_rejected', name: 'action_check_balance' },
      ]),
    );
    expect(await actions.run('action_check_balance', actionContext())).toEqual({
      rejected: 'the action answered action_execution_rejected',
    });
  });

  it('fail, naming the action, when the server has none by that name (404)', async () => {
    const failure = await actions.run('action_fetch_profile', actionContext()).catch((e) => e);
    expect(failure).toBeInstanceOf(ActionServerError);
    expect(failure.message).toBe(
      `the action server at ${server.url} has no action action_fetch_profile (HTTP 404)`,
    );
    expect(logs.join('\n')).toContain('error action server call failed');
  });

  it.each([408, 429, 503])(
    'try a %i answer again, with the same idempotency key, and take the next answer',
    async (status) => {
      server.action('action_check_balance', () =>
        answer([{ event: 'slot', name: 'balance', value: 7 }]),
      );
      const before = server.calls.length;
      server.next({ status, body: { error: 'busy' } });
      expect(await actions.run('action_check_balance', actionContext())).toEqual({
        slots: { balance: 7 },
      });
      const tries = server.calls.slice(before);
      expect(tries).toHaveLength(2);
      expect(tries[0]?.headers['idempotency-key']).toBe(tries[1]?.headers['idempotency-key']);
    },
  );

  it('give up after max_retries failing answers, as worth another try later', async () => {
    const before = server.calls.length;
    server.next(
      { status: 503, body: {} },
      { status: 504, body: {} },
      { status: 502, body: {}, headers: { 'retry-after': '1' } },
    );
    const failure = await actions.run('action_check_balance', actionContext()).catch((e) => e);
    expect(failure).toBeInstanceOf(ActionServerUnavailableError);
    expect(failure.transient).toBe(true);
    expect(failure.retryAfterMs).toBe(1000);
    expect(failure.message).toBe(`the action server at ${server.url} answered HTTP 502`);
    expect(server.calls.length - before).toBe(3);
  });

  it('stop waiting between tries with the job’s own reason when the job stops', async () => {
    server.next({ status: 503, body: {}, headers: { 'retry-after': '2' } });
    const job = new AbortController();
    const stopped = new Error('the job ran out of its budget');
    const before = server.calls.length;
    const call = actions.run('action_check_balance', actionContext({ signal: job.signal }));
    await vi.waitFor(() => expect(server.calls.length).toBe(before + 1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    job.abort(stopped);
    await expect(call).rejects.toBe(stopped);
    expect(server.calls.length).toBe(before + 1);
  });

  it('fail at once on a 500 answer, which the Rasa SDK gives when the action raised', async () => {
    const before = server.calls.length;
    server.next({ status: 500, body: { error: 'KeyError' } });
    const failure = await actions.run('action_check_balance', actionContext()).catch((e) => e);
    expect(failure).toBeInstanceOf(ActionServerError);
    expect(failure.message).toBe(
      `the action server at ${server.url} answered HTTP 500 (the action raised an error on the server)`,
    );
    expect(server.calls.length - before).toBe(1);
  });

  it('give up on a server that does not answer within the timeout, without calling again', async () => {
    // Only here a short timeout: elsewhere a busy machine must not turn a slow answer into none.
    const impatient = await assistantFrom(bankProject(server.url, 'timeout: 0.5\n'));
    const before = server.calls.length;
    server.next('hang');
    const failure = await actionServerActions({ assistant: impatient, secrets })
      .run('action_check_balance', actionContext())
      .catch((e) => e);
    expect(failure).toBeInstanceOf(ActionServerUnavailableError);
    expect(failure.message).toBe(`the action server at ${server.url} did not answer within 0.5 s`);
    expect(server.calls.length - before).toBe(1);
  });

  it('stop within the job deadline when it is nearer than the timeout', async () => {
    const failure = await actions
      .run('action_check_balance', actionContext({ deadline: Date.now() - 1 }))
      .catch((e) => e);
    expect(failure).toBeInstanceOf(ActionServerUnavailableError);
    expect(failure.message).toContain('no time was left in the job');
  });

  it('refuse an answer that is not JSON, or not events and responses', async () => {
    server.next({ raw: '{"events": [' });
    const malformed = await actions.run('action_check_balance', actionContext()).catch((e) => e);
    expect(malformed).toBeInstanceOf(ActionServerError);
    expect(malformed.message).toBe(
      `the action server at ${server.url} answered with malformed JSON`,
    );
    server.next({ body: { events: 'none' } });
    const wrong = await actions.run('action_check_balance', actionContext()).catch((e) => e);
    expect(wrong.message).toContain('answered with something other than {events, responses}');
  });

  it('take an empty or null answer as an action that did nothing', async () => {
    server.next({ raw: '' }, { body: null });
    expect(await actions.run('action_check_balance', actionContext())).toEqual({});
    expect(await actions.run('action_check_balance', actionContext())).toEqual({});
  });

  it('do not follow a redirect, which would carry the token elsewhere', async () => {
    server.next({ status: 307, headers: { location: 'http://127.0.0.1:1/elsewhere' } });
    const failure = await actions.run('action_check_balance', actionContext()).catch((e) => e);
    expect(failure).toBeInstanceOf(ActionServerError);
    expect(failure.message).toContain('redirected the call (HTTP 307)');
  });

  it('report a server that refuses connections as unreachable, after trying again', async () => {
    const down = await assistantFrom(bankProject(await refusedUrl(), 'max_retries: 1\n'));
    const failure = await actionServerActions({ assistant: down, secrets })
      .run('action_check_balance', actionContext())
      .catch((e) => e);
    expect(failure).toBeInstanceOf(ActionServerUnavailableError);
    expect(failure.message).toMatch(
      /^could not reach the action server at .* \(ECONNREFUSED\); is it running\?$/,
    );
  });

  it('send the domain only to actions that ask for it with enable_selective_domain, and again when the server asks (449)', async () => {
    const selective = await assistantFrom(
      bankProject(server.url, 'enable_selective_domain: true\n'),
    );
    const port = actionServerActions({ assistant: selective, secrets });
    server.action('action_transfer', () => answer());
    server.action('validate_amount', () => answer());
    server.action('action_check_balance', (call) =>
      call.body.domain ? answer() : { status: 449, body: { error: 'domain missing' } },
    );
    const before = server.calls.length;
    await port.run('action_transfer', actionContext());
    await port.run('validate_amount', actionContext());
    await port.run('action_check_balance', actionContext());
    const sent = server.calls.slice(before).map((c) => [c.action, c.body.domain !== undefined]);
    expect(sent).toEqual([
      ['action_transfer', true],
      ['validate_amount', true],
      ['action_check_balance', false],
      ['action_check_balance', true],
    ]);
  });
});

describe("custom actions of Rasa's in-process Python module", () => {
  it('fail saying they are Python and how to run them on an action server', async () => {
    const files = bankProject('http://unused');
    const assistant = await assistantFrom({
      ...files,
      'endpoints.yml': 'action_endpoint:\n  actions_module: actions\n',
    });
    const actions = actionServerActions({ assistant, secrets });
    expect(actions.has('action_check_balance')).toBe(true);
    const failure = await actions.run('action_check_balance', actionContext()).catch((e) => e);
    expect(failure).toBeInstanceOf(PythonActionError);
    expect(failure.message).toContain(
      `action_check_balance is Python code of Rasa's in-process action module "actions"`,
    );
    expect(failure.message).toContain('set action_endpoint.url');
  });
});

describe('the project actions', () => {
  it('run a TypeScript function before the action server', async () => {
    const server = await FakeActionServer.start();
    try {
      const assistant = await assistantFrom(bankProject(server.url));
      const typescript: ActionPort = {
        has: (name) => name === 'action_check_balance',
        run: async () => ({ slots: { balance: 1 } }),
      };
      const actions = projectActions(typescript, { assistant, secrets });
      expect(await actions.run('action_check_balance', actionContext())).toEqual({
        slots: { balance: 1 },
      });
      expect(actions.has('action_transfer')).toBe(true);
      expect(server.calls).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
