import { RequestMalformedError } from '@a2a-js/sdk/errors';
import { describe, expect, it, vi } from 'vitest';
import type { A2ATaskStore, TaskRecord } from '../../../src/a2aServer/index.js';
import { sendPushes } from '../../../src/a2aServer/push.js';
import {
  inwardHostReason,
  inwardTargetReason,
  isInwardAddress,
} from '../../../src/a2aServer/pushAddress.js';
import { pushTargetOf, withTarget } from '../../../src/a2aServer/pushTargets.js';
import type { PushTarget } from '../../../src/a2aServer/record.js';
import type { ChannelWork } from '../../../src/runtime/index.js';
import { taskRecord } from '../../helpers/a2aRecords.js';

describe('addresses of the server’s own network', () => {
  it.each([
    '127.0.0.1',
    '127.8.9.10',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    '[::1]',
    '::',
    'fd00::1',
    'fe80::1',
    '::ffff:127.0.0.1',
    '::ffff:169.254.169.254',
    '::7f00:1',
    '::ffff:0:7f00:1',
    '64:ff9b::a00:1',
    '2002:7f00:1::1',
  ])('%s is inward', (address) => {
    expect(isInwardAddress(address)).toBe(true);
  });

  it.each([
    '8.8.8.8',
    '172.32.0.1',
    '192.169.0.1',
    '100.128.0.1',
    '2001:db8::1',
    '::ffff:8.8.8.8',
    'receiver.example',
  ])('%s is not', (address) => {
    expect(isInwardAddress(address)).toBe(false);
  });

  it('names literal hosts and localhost names before resolving', () => {
    expect(inwardHostReason(new URL('http://localhost:8080/push'))).toMatch(/localhost/);
    expect(inwardHostReason(new URL('http://api.localhost/push'))).toMatch(/api\.localhost/);
    expect(inwardHostReason(new URL('http://[::1]:9/push'))).toMatch(/::1/);
    expect(inwardHostReason(new URL('https://receiver.example/push'))).toBeUndefined();
  });

  it('refuses a public name that resolves inward, and leaves a name that does not resolve to the send', async () => {
    const resolve = async (host: string) => {
      if (host === 'rebound.example') return ['203.0.113.7', '10.0.0.5'];
      if (host === 'receiver.example') return ['203.0.113.7', '2001:db8::7'];
      throw new Error('ENOTFOUND');
    };
    expect(await inwardTargetReason(new URL('https://rebound.example/p'), resolve)).toBe(
      "rebound.example resolves to 10.0.0.5, in this agent's own network",
    );
    expect(await inwardTargetReason(new URL('https://receiver.example/p'), resolve)).toBe(
      undefined,
    );
    expect(await inwardTargetReason(new URL('https://gone.example/p'), resolve)).toBeUndefined();
  });
});

const config = (url: string) => ({
  tenant: '',
  id: 'p',
  taskId: 't',
  url,
  token: 'tok',
  authentication: undefined,
});
const pushKey = async () => 'push-key-of-the-test';

describe('push notification configs of a deployed server', () => {
  it('are refused when their URL points into the server’s own network, saying why', async () => {
    const deps = { pushEnabled: true, pushKey };
    await expect(
      pushTargetOf(deps, config('http://169.254.169.254/latest/meta-data'), '1.0', -1),
    ).rejects.toThrow(RequestMalformedError);
    await expect(
      pushTargetOf(deps, config('http://localhost:3000/push'), '1.0', -1),
    ).rejects.toThrow(
      "the push notification url is refused: localhost is in this agent's own network",
    );
    const taken = await pushTargetOf(deps, config('https://receiver.example/push'), '1.0', -1);
    expect(taken.url).toBe('https://receiver.example/push');
  });

  it('are taken for loopback on the local stack', async () => {
    const deps = { pushEnabled: true, pushKey, pushToOwnNetwork: true };
    const taken = await pushTargetOf(deps, config('http://127.0.0.1:9/push'), '1.0', -1);
    expect(taken.url).toBe('http://127.0.0.1:9/push');
  });

  it('are not sent to when the name has come to resolve inward since, and not tried again', async () => {
    const target = await pushTargetOf(deps(), config('https://rebound.example/push'), '1.0', -1);
    const run = pushRun([target], { resolve: async () => ['10.0.0.5'] });
    await run.send();
    expect(run.fetch).not.toHaveBeenCalled();
    expect(run.queue.enqueue).not.toHaveBeenCalled();
    expect(run.warn).toHaveBeenCalledWith(
      'a push notification target is refused; it is not sent to',
      expect.objectContaining({
        reason: "rebound.example resolves to 10.0.0.5, in this agent's own network",
      }),
    );
  });
});

describe('push notification configs no request could carry', () => {
  const withAuth = (scheme: string, credentials: string) => ({
    ...config('https://receiver.example/push'),
    authentication: { scheme, credentials },
  });

  it.each([
    [
      'a user name in the url',
      config('https://user:pw@receiver.example/push'),
      /user name or password/,
    ],
    ['a line break in the scheme', withAuth('Bearer\r\nX-Evil: 1', 'c'), /visible ASCII/],
    ['a scheme of two words', withAuth('Bearer token', 'c'), /one word/],
    ['credentials beyond ASCII', withAuth('Bearer', 'caf\u00e9'), /visible ASCII/],
    [
      'a token beyond ASCII',
      { ...config('https://receiver.example/push'), token: '\u20ac' },
      /token may hold/,
    ],
    ['an overlong url', config(`https://receiver.example/${'p'.repeat(2100)}`), /longer than 2048/],
  ])('refuses %s, saying why', async (_case, given, why) => {
    await expect(pushTargetOf(deps(), given, '1.0', -1)).rejects.toThrow(why);
  });

  it('gives up on a target the request cannot be sent to, and still sends to the others', async () => {
    const bad = {
      ...(await pushTargetOf(deps(), config('https://bad.example/push'), '1.0', -1)),
      id: 'bad',
    };
    const good = {
      ...(await pushTargetOf(deps(), config('https://good.example/push'), '1.0', -1)),
      id: 'good',
    };
    const run = pushRun([bad, good], {
      resolve: async () => ['203.0.113.7'],
      fetch: async (url) => {
        if (String(url).includes('bad.example')) throw new TypeError('invalid header value');
        return new Response(null, { status: 200 });
      },
    });
    await run.send();
    expect(run.fetch.mock.calls.map(([url]) => String(url))).toEqual([
      'https://bad.example/push',
      'https://good.example/push',
    ]);
    expect(run.queue.enqueue).not.toHaveBeenCalled();
    expect(run.stored().push.map((t) => [t.id, t.delivered])).toEqual([
      ['bad', 0],
      ['good', 0],
    ]);
    expect(run.warn).toHaveBeenCalledWith(
      'a push notification could not be sent; it is not sent again',
      expect.objectContaining({ target: 'bad' }),
    );
  });
});

function deps() {
  return { pushEnabled: true, pushKey };
}

/** A push job of a task with one update and the given targets, over a store of that task alone. */
function pushRun(
  targets: PushTarget[],
  options: { resolve: (host: string) => Promise<string[]>; fetch?: typeof globalThis.fetch },
) {
  let stored: TaskRecord = targets.reduce(
    (record, target) => withTarget(record, target),
    taskRecord('t', {
      next_seq: 1,
      updates: [
        {
          seq: 0,
          update: { task: { id: 't', contextId: 'ctx', status: { state: 'TASK_STATE_WORKING' } } },
        },
      ],
    }),
  );
  const tasks = {
    load: async () => stored,
    save: async (_c: string, r: TaskRecord) => {
      stored = r;
      return true;
    },
  } as unknown as A2ATaskStore;
  const fetch = vi.fn<typeof globalThis.fetch>(options.fetch);
  const queue = { enqueue: vi.fn(async () => {}) };
  const warn = vi.fn();
  const job = {
    type: 'channel_work',
    id: 'push-1',
    conversation_id: 'a2a:ctx',
    turn_id: 't/a2a-job',
    channel: 'a2a',
    work: { kind: 'push', task_id: 't', attempt: 0 },
  } as ChannelWork;
  return {
    fetch,
    queue,
    warn,
    stored: () => stored,
    send: () =>
      sendPushes(
        {
          tasks,
          queue: queue as never,
          now: () => 0,
          pushKey,
          fetch,
          resolve: options.resolve,
          logger: { warn, info: vi.fn(), error: vi.fn(), debug: vi.fn() } as never,
        },
        job,
        new AbortController().signal,
      ),
  };
}
