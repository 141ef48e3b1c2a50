import { describe, expect, it, vi } from 'vitest';
import { actionServerActions } from '../../../src/actionServer/index.js';
import { DialogueEngine } from '../../../src/dialogue/index.js';
import { assistantFrom, Conversation, testPorts } from '../../helpers/dialogue.js';
import { ACTION_TOKEN, bankProject } from '../../integration/actionServer/fixtures.js';
import { secretsOf } from '../../integration/mcp/fixtures.js';

const URL_BASE = 'http://actions.invalid/webhook';

/**
 * A `fetch` that stands in for the action server without any I/O: it records each request and
 * answers with what `reply` makes of it. Servers may echo what they were sent, the token too.
 */
function fakeFetch(reply: (url: string, body: string) => Response | Error) {
  const requests: { url: string; headers: Record<string, string>; body: string }[] = [];
  const fetchFn: typeof fetch = async (input, init) => {
    const url = String(input);
    const body = String(init?.body ?? '');
    requests.push({ url, headers: { ...(init?.headers as Record<string, string>) }, body });
    const answer = reply(url, body);
    if (answer instanceof Error) throw answer;
    return answer;
  };
  return { fetchFn, requests };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

async function conversationWith(fetchFn: typeof fetch, logs: string[]) {
  const assistant = await assistantFrom(bankProject(URL_BASE, 'token: ${ACTION_TOKEN}\n'));
  const logger = {
    warn: (m: string, f: Record<string, unknown>) => logs.push(`${m} ${JSON.stringify(f)}`),
    error: (m: string, f: Record<string, unknown>) => logs.push(`${m} ${JSON.stringify(f)}`),
  };
  const actions = actionServerActions({
    assistant,
    secrets: secretsOf({ ACTION_TOKEN }),
    logger,
    fetch: fetchFn,
  });
  return {
    assistant,
    c: new Conversation(new DialogueEngine(assistant), testPorts(actions), 'ada'),
  };
}

describe("the action server's token", () => {
  it('is kept as a reference by the loaded assistant', async () => {
    const { assistant } = await conversationWith(fakeFetch(() => json(200, {})).fetchFn, []);
    expect(assistant.actionEndpoint?.token).toEqual({ secret: 'ACTION_TOKEN' });
    expect(JSON.stringify(assistant)).not.toContain(ACTION_TOKEN);
  });

  it('goes only into the query of the requests, never into their body or headers', async () => {
    const { fetchFn, requests } = fakeFetch(() =>
      json(200, { events: [{ event: 'slot', name: 'balance', value: 5 }] }),
    );
    const { c } = await conversationWith(fetchFn, []);
    await c.say('/check_balance');
    expect(requests).toHaveLength(1);
    expect(new URL(requests[0]?.url ?? '').searchParams.get('token')).toBe(ACTION_TOKEN);
    expect(requests[0]?.body).not.toContain(ACTION_TOKEN);
    expect(JSON.stringify(requests[0]?.headers)).not.toContain(ACTION_TOKEN);
  });

  it('reaches neither the conversation nor the log when the server echoes it in a rejection', async () => {
    const logs: string[] = [];
    const { fetchFn } = fakeFetch((url) =>
      json(400, { error: `refused the request to ${url}`, action_name: 'action_check_balance' }),
    );
    const { c } = await conversationWith(fetchFn, logs);
    await c.say('/check_balance');
    expect(logs.join('\n')).toContain('rejected an action');
    expect(logs.join('\n')).not.toContain(ACTION_TOKEN);
    expect(JSON.stringify(c.state)).not.toContain(ACTION_TOKEN);
    expect(JSON.stringify(c.events)).toContain('[redacted]');
    expect(JSON.stringify(c.events)).not.toContain(ACTION_TOKEN);
  });

  it('reaches neither the conversation nor the log when a failing request names its URL', async () => {
    const logs: string[] = [];
    const { fetchFn } = fakeFetch((url) => new TypeError(`fetch failed for ${url}`));
    const { c } = await conversationWith(fetchFn, logs);
    // The failed connection is tried again after backoffs, which fake time lets pass at once.
    vi.useFakeTimers();
    const said = c.say('/check_balance');
    await vi.runAllTimersAsync();
    await said;
    vi.useRealTimers();
    expect(logs.join('\n')).toContain('action server call failed');
    expect(logs.join('\n')).not.toContain(ACTION_TOKEN);
    expect(JSON.stringify(c.state)).not.toContain(ACTION_TOKEN);
    expect(JSON.stringify(c.events)).not.toContain(ACTION_TOKEN);
  });
});
