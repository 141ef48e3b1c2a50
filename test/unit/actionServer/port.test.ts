import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ActionServerError,
  ActionServerUnavailableError,
  actionServerActions,
  PythonActionError,
} from '../../../src/actionServer/index.js';
import type { Assistant } from '../../../src/assistant/index.js';
import type { ActionPort } from '../../../src/dialogue/index.js';
import { assistantFrom } from '../../helpers/dialogue.js';
import { SILENT_LOGGER } from '../../helpers/logger.js';
import {
  ACTION_TOKEN,
  actionContext,
  bankProject,
} from '../../integration/actionServer/fixtures.js';
import { secretsOf } from '../../integration/mcp/fixtures.js';

const URL_BASE = 'http://actions.invalid/webhook';
const secrets = secretsOf({ ACTION_TOKEN });

/** What the stand-in server does with one request: answer, fail, or wait for the abort. */
type Reply = Response | Error | 'wait-for-abort';

interface Request {
  readonly url: string;
  readonly headers: Record<string, string>;
  // biome-ignore lint/suspicious/noExplicitAny: the body is whatever the port sent; tests read into it.
  readonly body: any;
}

/**
 * A `fetch` that stands in for the action server without any I/O: each request takes the next
 * scripted reply, then `otherwise`.
 */
function scriptedFetch(replies: Reply[], otherwise: () => Reply = () => json(200, {})) {
  const requests: Request[] = [];
  const fetchFn: typeof fetch = async (input, init) => {
    requests.push({
      url: String(input),
      headers: { ...(init?.headers as Record<string, string>) },
      body: JSON.parse(String(init?.body)),
    });
    const reply = replies.shift() ?? otherwise();
    if (reply === 'wait-for-abort') {
      return new Promise<Response>((_, reject) => {
        // A fetch of its own may fail with an AbortError of its own, not the signal's reason.
        init?.signal?.addEventListener('abort', () =>
          reject(new DOMException('This operation was aborted', 'AbortError')),
        );
      });
    }
    if (reply instanceof Error) throw reply;
    return reply;
  };
  return { fetchFn, requests };
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

const refused = () =>
  new TypeError('fetch failed', {
    cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
  });

interface Line {
  readonly level: string;
  readonly message: string;
  readonly fields: Record<string, unknown>;
}

function recordingLogger() {
  const lines: Line[] = [];
  const logger = {
    ...SILENT_LOGGER,
    warn: (message: string, fields: Record<string, unknown>) =>
      lines.push({ level: 'warn', message, fields }),
    error: (message: string, fields: Record<string, unknown>) =>
      lines.push({ level: 'error', message, fields }),
  };
  return { lines, logger };
}

async function bank(endpoint = 'timeout: 10\n'): Promise<Assistant> {
  return assistantFrom(bankProject(URL_BASE, endpoint));
}

/** What a promise came to, once settled, without throwing. */
function settled<T>(promise: Promise<T>): Promise<{ value?: T; error?: unknown }> {
  return promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the custom actions a project leaves to its action server', () => {
  it('are the listed ones that are no TypeScript function, response or utter_ name', async () => {
    const loaded = await bank();
    const assistant: Assistant = {
      ...loaded,
      actions: ['action_in_typescript'],
      domainActions: [
        'action_in_typescript',
        'utter_listed_as_action',
        'action_said_by_a_response',
        'action_check_balance',
        'action_session_start',
      ],
      responses: { ...loaded.responses, action_said_by_a_response: [{ text: 'Hi' }] },
    };
    const actions = actionServerActions({ assistant, secrets, fetch: scriptedFetch([]).fetchFn });
    expect(actions.has('action_check_balance')).toBe(true);
    // With an action server, a listed built-in is the project's own, run there.
    expect(actions.has('action_session_start')).toBe(true);
    expect(actions.has('action_in_typescript')).toBe(false);
    expect(actions.has('utter_listed_as_action')).toBe(false);
    expect(actions.has('action_said_by_a_response')).toBe(false);
    expect(actions.has('action_fetch_profile')).toBe(false);
  });

  it('fail as undefined, without a request, when the action is not one of them', async () => {
    const { fetchFn, requests } = scriptedFetch([]);
    const actions = actionServerActions({ assistant: await bank(), secrets, fetch: fetchFn });
    await expect(actions.run('action_nowhere', actionContext())).rejects.toThrow(
      /^custom action action_nowhere is not defined$/,
    );
    expect(requests).toEqual([]);
  });

  it('are none without an action endpoint: each fails as undefined', async () => {
    const assistant: Assistant = { ...(await bank()), actionEndpoint: undefined };
    const actions = actionServerActions({ assistant, secrets });
    expect(actions.has('action_check_balance')).toBe(false);
    const failure = await actions.run('action_check_balance', actionContext()).catch((e) => e);
    expect(failure).not.toBeInstanceOf(PythonActionError);
    expect(failure.message).toBe('custom action action_check_balance is not defined');
  });

  it("fail saying they are Python with Rasa's in-process module, which cannot replace a built-in", async () => {
    const files = bankProject(URL_BASE);
    const loaded = await assistantFrom({
      ...files,
      'endpoints.yml': 'action_endpoint:\n  actions_module: actions\n',
    });
    const assistant: Assistant = {
      ...loaded,
      domainActions: [...loaded.domainActions, 'action_session_start'],
    };
    const actions = actionServerActions({ assistant, secrets });
    expect(actions.has('action_session_start')).toBe(false);
    const python = await actions.run('action_check_balance', actionContext()).catch((e) => e);
    expect(python).toBeInstanceOf(PythonActionError);
    expect(python.name).toBe('PythonActionError');
    expect(python.code).toBe('ACTION_IS_PYTHON');
    const unknown = await actions.run('action_nowhere', actionContext()).catch((e) => e);
    expect(unknown).not.toBeInstanceOf(PythonActionError);
    expect(unknown.message).toBe('custom action action_nowhere is not defined');
  });
});

describe('a call to the action server', () => {
  it('keeps apart the idempotency keys of senders and call keys that run together', async () => {
    const { fetchFn, requests } = scriptedFetch([]);
    const actions = actionServerActions({ assistant: await bank(), secrets, fetch: fetchFn });
    await actions.run('action_check_balance', actionContext({ senderId: 'ab', callKey: 'c' }));
    await actions.run('action_check_balance', actionContext({ senderId: 'a', callKey: 'bc' }));
    const [first, second] = requests.map((r) => r.headers['Idempotency-Key']);
    expect(first).toMatch(/^[\w-]{32}$/);
    expect(second).toMatch(/^[\w-]{32}$/);
    expect(first).not.toBe(second);
  });

  it('measures the deadline by the clock it is given: no call at the deadline, one before it', async () => {
    const { fetchFn, requests } = scriptedFetch([]);
    const actions = actionServerActions({
      assistant: await bank(),
      secrets,
      fetch: fetchFn,
      now: () => 5_000,
    });
    const late = await actions
      .run('action_check_balance', actionContext({ deadline: 5_000 }))
      .catch((e) => e);
    expect(late).toBeInstanceOf(ActionServerUnavailableError);
    expect(late.message).toBe(
      `no time was left in the job to call the action server at ${URL_BASE}`,
    );
    expect(requests).toHaveLength(0);
    expect(await actions.run('action_check_balance', actionContext({ deadline: 6_000 }))).toEqual(
      {},
    );
    expect(requests).toHaveLength(1);
  });

  it.each([
    ['an answer', () => json(200, { events: [] })],
    ['a refusal', () => json(404, {})],
  ])('leaves no timer behind once it has %s', async (_case, reply) => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { fetchFn } = scriptedFetch([reply()]);
    const actions = actionServerActions({ assistant: await bank(), secrets, fetch: fetchFn });

    await actions.run('action_check_balance', actionContext()).catch(() => undefined);

    expect(vi.getTimerCount()).toBe(0);
  });

  it('waits before trying again as long as the random number it is given stretches the backoff', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { fetchFn, requests } = scriptedFetch([json(503, {})]);
    const actions = actionServerActions({
      assistant: await bank(),
      secrets,
      fetch: fetchFn,
      random: () => 0,
    });
    const outcome = settled(actions.run('action_check_balance', actionContext()));
    await vi.advanceTimersByTimeAsync(249);
    expect(requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(requests).toHaveLength(2);
    expect(await outcome).toEqual({ value: {} });
  });

  it('tries a refused connection again, with the same idempotency key, and takes the next answer', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { fetchFn, requests } = scriptedFetch([
      refused(),
      json(200, { events: [{ event: 'slot', name: 'balance', value: 3 }] }),
    ]);
    const actions = actionServerActions({ assistant: await bank(), secrets, fetch: fetchFn });
    const outcome = settled(actions.run('action_check_balance', actionContext()));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await outcome).toEqual({ value: { slots: { balance: 3 } } });
    expect(requests).toHaveLength(2);
    expect(requests[1]?.headers['Idempotency-Key']).toBe(requests[0]?.headers['Idempotency-Key']);
  });

  it('gives up after max_retries refused connections, though the server would answer later', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const replies: Reply[] = [refused(), refused(), refused(), refused(), refused()];
    const { fetchFn, requests } = scriptedFetch(replies);
    const actions = actionServerActions({ assistant: await bank(), secrets, fetch: fetchFn });
    const outcome = settled(actions.run('action_check_balance', actionContext()));
    await vi.advanceTimersByTimeAsync(5_000);
    const { error } = await outcome;
    expect(error).toBeInstanceOf(ActionServerUnavailableError);
    expect((error as Error).message).toBe(
      `could not reach the action server at ${URL_BASE} (ECONNREFUSED); is it running?`,
    );
    expect(requests).toHaveLength(3);
  });

  it('names an unreachable server without a network code, keeping the cause', async () => {
    const cause = new TypeError('fetch failed');
    const { fetchFn, requests } = scriptedFetch([cause]);
    const actions = actionServerActions({
      assistant: await bank('max_retries: 0\n'),
      secrets,
      fetch: fetchFn,
    });
    const failure = await actions.run('action_check_balance', actionContext()).catch((e) => e);
    expect(failure).toBeInstanceOf(ActionServerUnavailableError);
    expect(failure.message).toBe(
      `could not reach the action server at ${URL_BASE}; is it running?`,
    );
    expect(failure.name).toBe('ActionServerUnavailableError');
    expect(failure.code).toBe('ACTION_SERVER_UNAVAILABLE');
    expect(failure.transient).toBe(true);
    expect(failure.cause).toBe(cause);
    expect(requests).toHaveLength(1);
  });

  it('fails once, keeping the cause, when the request fails otherwise than on the network', async () => {
    const cause = new RangeError('no such request');
    const { fetchFn, requests } = scriptedFetch([cause]);
    const actions = actionServerActions({ assistant: await bank(), secrets, fetch: fetchFn });
    const failure = await actions.run('action_check_balance', actionContext()).catch((e) => e);
    expect(failure).toBeInstanceOf(ActionServerError);
    expect(failure.message).toBe(`the call to the action server at ${URL_BASE} failed`);
    expect(failure.name).toBe('ActionServerError');
    expect(failure.code).toBe('ACTION_SERVER_REFUSED');
    expect(failure.transient).toBe(false);
    expect(failure.cause).toBe(cause);
    expect(requests).toHaveLength(1);
  });

  it('does not wait within the call for a Retry-After longer than two seconds', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { fetchFn, requests } = scriptedFetch([], () => json(503, {}, { 'retry-after': '3' }));
    const actions = actionServerActions({ assistant: await bank(), secrets, fetch: fetchFn });
    const outcome = settled(actions.run('action_check_balance', actionContext()));
    await vi.advanceTimersByTimeAsync(10_000);
    const { error } = await outcome;
    expect(error).toBeInstanceOf(ActionServerUnavailableError);
    expect((error as ActionServerUnavailableError).retryAfterMs).toBe(3_000);
    expect(requests).toHaveLength(1);
  });

  it('tries a busy answer without a body again', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { fetchFn, requests } = scriptedFetch([new Response(null, { status: 503 })]);
    const actions = actionServerActions({ assistant: await bank(), secrets, fetch: fetchFn });
    const outcome = settled(actions.run('action_check_balance', actionContext()));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await outcome).toEqual({ value: {} });
    expect(requests).toHaveLength(2);
  });

  it('stops with the job’s reason, logging no failure, whatever error the fetch then gives', async () => {
    const { lines, logger } = recordingLogger();
    const { fetchFn, requests } = scriptedFetch(['wait-for-abort']);
    const actions = actionServerActions({
      assistant: await bank(),
      secrets,
      logger,
      fetch: fetchFn,
    });
    const job = new AbortController();
    const stopped = new Error('the job ran out of its budget');
    const call = actions.run('action_check_balance', actionContext({ signal: job.signal }));
    await vi.waitFor(() => expect(requests).toHaveLength(1));
    job.abort(stopped);
    await expect(call).rejects.toBe(stopped);
    expect(lines).toEqual([]);
  });
});

describe('the domain on a call', () => {
  async function selective() {
    const { lines, logger } = recordingLogger();
    const assistant = await bank('enable_selective_domain: true\n');
    return { assistant, lines, logger };
  }

  it('is sent once more only when the server asks for it', async () => {
    const { assistant } = await selective();
    const { fetchFn, requests } = scriptedFetch([]);
    const actions = actionServerActions({ assistant, secrets, fetch: fetchFn });
    expect(await actions.run('action_check_balance', actionContext())).toEqual({});
    expect(requests.map((r) => r.body.domain !== undefined)).toEqual([false]);

    const asked = scriptedFetch([new Response(null, { status: 449 })]);
    const again = actionServerActions({ assistant, secrets, fetch: asked.fetchFn });
    expect(await again.run('action_check_balance', actionContext())).toEqual({});
    expect(asked.requests.map((r) => r.body.domain !== undefined)).toEqual([false, true]);
  });

  it('fails the call when the server asks for the domain it was sent', async () => {
    const { assistant } = await selective();
    const { fetchFn, requests } = scriptedFetch([], () => json(449, { error: 'domain missing' }));
    const actions = actionServerActions({ assistant, secrets, fetch: fetchFn });
    const sent = await actions.run('action_transfer', actionContext()).catch((e) => e);
    expect(sent).toBeInstanceOf(ActionServerError);
    expect(sent.message).toBe(
      `the action server at ${URL_BASE} asked for the domain it was sent (HTTP 449)`,
    );
    expect(sent.status).toBe(449);
    expect(requests).toHaveLength(1);

    const twice = await actions.run('action_check_balance', actionContext()).catch((e) => e);
    expect(twice).toBeInstanceOf(ActionServerError);
    expect(requests.slice(1).map((r) => r.body.domain !== undefined)).toEqual([false, true]);
  });
});

describe('the log of a call', () => {
  async function logged(reply: Reply) {
    const { lines, logger } = recordingLogger();
    const { fetchFn } = scriptedFetch([], () => reply);
    const actions: ActionPort = actionServerActions({
      assistant: await bank('max_retries: 0\n'),
      secrets,
      logger,
      fetch: fetchFn,
    });
    const result = await settled(actions.run('action_check_balance', actionContext()));
    return { lines, result };
  }

  const where = { action: 'action_check_balance', server: URL_BASE, flow: 'check_balance' };

  it('is silent for an answer taken whole', async () => {
    const { lines } = await logged(
      json(200, { events: [{ event: 'slot', name: 'balance', value: 1 }] }),
    );
    expect(lines).toEqual([]);
  });

  it('names the action, server and flow of an answer left partly aside, and what was', async () => {
    const { lines } = await logged(
      json(200, { events: [{ event: 'slot', name: 'not_a_slot', value: 1 }] }),
    );
    expect(lines).toEqual([
      {
        level: 'warn',
        message: 'action server answer left partly aside',
        fields: { ...where, ignored: ['slot event for unknown slot not_a_slot'] },
      },
    ]);
  });

  it('names the action, server and flow of a rejection, and its reason', async () => {
    const { lines, result } = await logged(json(400, { error: 'Too much' }));
    expect(result).toEqual({ value: { rejected: 'Too much' } });
    expect(lines).toEqual([
      {
        level: 'warn',
        message: 'action server rejected an action',
        fields: { ...where, reason: 'Too much' },
      },
    ]);
  });

  it('names the action, server and flow of a failed call, and the failure', async () => {
    const { lines, result } = await logged(json(404, { error: 'no such action' }));
    const failure = result.error as ActionServerError;
    expect(failure.status).toBe(404);
    expect(lines).toEqual([
      {
        level: 'error',
        message: 'action server call failed',
        fields: { ...where, error: failure.message },
      },
    ]);
  });
});
