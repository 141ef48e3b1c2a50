import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_HEADER, projectActions } from '../../../src/actionServer/index.js';
import { NO_ACTIONS } from '../../../src/dialogue/index.js';
import { MAX_RETRIES } from '../../../src/runtime/index.js';
import { answer, FakeActionServer } from '../../helpers/fakeActionServer.js';
import { internalErrorReasons, runtimeSuite, userMessage } from '../../helpers/runtime.js';
import { ACTION_TOKEN, bankProject } from '../actionServer/fixtures.js';
import { secretsOf } from '../mcp/fixtures.js';

const INTERNAL_ERROR = 'Sorry, something went wrong on my side. Please try again in a moment.';

let server: FakeActionServer;
beforeAll(async () => {
  server = await FakeActionServer.start();
});
afterAll(async () => {
  await server?.close();
});
// No retries within a call: each try of the turn is one request.
const suite = runtimeSuite(() => bankProject(server.url, 'max_retries: 0\n'));

describe('turns whose flow runs an action on a Rasa action server', () => {
  const runtime = () =>
    suite.runtime({
      actions: projectActions(NO_ACTIONS, {
        assistant: suite.assistant,
        secrets: secretsOf({ ACTION_TOKEN }),
      }),
    });

  it('commit what the action did and deliver its messages', async () => {
    server.action('action_check_balance', () =>
      answer([{ event: 'slot', name: 'balance', value: 99.5 }]),
    );
    const rt = await runtime();
    const job = userMessage('bank-ok', '/check_balance');
    await rt.queue.enqueue([job]);
    await rt.drain(async () => (await rt.replies.read('bank-ok', job.turn_id)).settled);
    const replies = await rt.replies.read('bank-ok', job.turn_id);
    expect(replies.messages.map((m) => m.message.text)).toEqual([
      'Your checking balance is 99.5.',
      'Can I help you with anything else?',
    ]);
    expect((await rt.store.load('bank-ok'))?.state.slots.balance).toBe(99.5);
  });

  it('try the turn again later while the server fails, with one idempotency key, then answer with the internal-error pattern', async () => {
    server.action('action_check_balance', () => ({ status: 503, body: {} }));
    const rt = await runtime();
    const before = server.calls.length;
    const job = userMessage('bank-down', '/check_balance');
    await rt.queue.enqueue([job]);
    await rt.drain(async () => (await rt.replies.read('bank-down', job.turn_id)).settled);

    const tries = server.calls.slice(before);
    expect(tries).toHaveLength(MAX_RETRIES + 1);
    const keys = new Set(tries.map((call) => call.headers[IDEMPOTENCY_HEADER.toLowerCase()]));
    expect(keys.size).toBe(1);
    const replies = await rt.replies.read('bank-down', job.turn_id);
    expect(replies.messages.map((m) => m.message.text)).toEqual([INTERNAL_ERROR]);
    expect(await internalErrorReasons(rt, 'bank-down')).toEqual([
      `action action_check_balance failed: the action server at ${server.url} answered HTTP 503`,
    ]);
    // The failed tries kept nothing: the conversation holds one user message.
    const events = await rt.store.readEvents('bank-down');
    expect(events.filter((e) => e.event.event === 'user')).toHaveLength(1);
  });
});
