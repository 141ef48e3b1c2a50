import { describe, expect, it } from 'vitest';
import type { ConversationSecret } from '../../../src/assistant/index.js';
import { ConversationSecretError, conversationSecretHook } from '../../../src/mcp/index.js';
import type { SecretStore } from '../../../src/runtime/index.js';

/** What the store answers to one read: a value, or a failure to read it. */
type Answer = string | Promise<string> | { readonly fails: Error };

/**
 * Secrets whose reads are recorded; a secret answers with its next scripted answer, then with
 * its last one.
 */
function secretStore(values: Readonly<Record<string, Answer | Answer[]>>) {
  const reads: string[] = [];
  const scripts = new Map(
    Object.entries(values).map(([name, v]) => [name, Array.isArray(v) ? [...v] : [v]]),
  );
  const store: SecretStore = {
    get: async (name) => {
      reads.push(name);
      const script = scripts.get(name) ?? [];
      const answer =
        (script.length > 1 ? script.shift() : script[0]) ?? JSON.stringify({ id: name });
      if (typeof answer === 'object' && 'fails' in answer) throw answer.fails;
      return answer;
    },
  };
  return { store, reads };
}

function clock() {
  let now = 0;
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

function deferred() {
  let resolve: (value: string) => void = () => {};
  const promise = new Promise<string>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

const settings = (overrides: Partial<ConversationSecret> = {}): ConversationSecret => ({
  secret_id: 'customers/{sender_id}',
  metadata: { 'x-customer-id': 'id' },
  cache_ttl: 60,
  ...overrides,
});

const as = (senderId: string) => ({ senderId, serverName: 's', toolName: 'echo' });

describe('conversationSecretHook', () => {
  it('returns the configured keys of the conversation’s secret as metadata', async () => {
    const { store, reads } = secretStore({
      'customers/ada': JSON.stringify({ id: 'c-1', token: 'dealer-token', extra: 'x' }),
    });
    const hook = conversationSecretHook(
      settings({ metadata: { 'x-customer-id': 'id', authorization: 'token' } }),
      store,
    );

    const answer = await hook(as('ada'));

    expect(answer).toEqual({ metadata: { 'x-customer-id': 'c-1', authorization: 'dealer-token' } });
    expect(reads).toEqual(['customers/ada']);
  });

  it('keeps a secret for cache_ttl seconds and reads it again once they are over', async () => {
    const time = clock();
    const { store, reads } = secretStore({
      'customers/ada': [JSON.stringify({ id: 'c-1' }), JSON.stringify({ id: 'c-1b' })],
    });
    const hook = conversationSecretHook(settings({ cache_ttl: 60 }), store, time.now);

    const first = await hook(as('ada'));
    time.advance(59_999);
    const cached = await hook(as('ada'));
    time.advance(1);
    const reread = await hook(as('ada'));

    expect([first, cached, reread]).toEqual([
      { metadata: { 'x-customer-id': 'c-1' } },
      { metadata: { 'x-customer-id': 'c-1' } },
      { metadata: { 'x-customer-id': 'c-1b' } },
    ]);
    expect(reads).toEqual(['customers/ada', 'customers/ada']);
  });

  it('keeps the secrets of several conversations at once', async () => {
    const { store, reads } = secretStore({});
    const hook = conversationSecretHook(settings(), store, () => 0);

    await hook(as('ada'));
    await hook(as('bob'));
    const again = await hook(as('ada'));

    expect(again).toEqual({ metadata: { 'x-customer-id': 'customers/ada' } });
    expect(reads).toEqual(['customers/ada', 'customers/bob']);
  });

  it('keeps a thousand secrets at most, forgetting the oldest first', async () => {
    const { store, reads } = secretStore({});
    const hook = conversationSecretHook(settings(), store, () => 0);
    for (let n = 0; n <= 1000; n += 1) await hook(as(`user-${n}`));
    reads.length = 0;

    await hook(as('user-0'));
    await hook(as('user-2'));
    await hook(as('user-1000'));

    expect(reads).toEqual(['customers/user-0']);
  });

  it('reads a secret again after a read that failed', async () => {
    const { store, reads } = secretStore({
      'customers/ada': [{ fails: new Error('throttled') }, JSON.stringify({ id: 'c-1' })],
    });
    const hook = conversationSecretHook(settings(), store, () => 0);

    await expect(hook(as('ada'))).rejects.toThrow('throttled');
    const answer = await hook(as('ada'));

    expect(answer).toEqual({ metadata: { 'x-customer-id': 'c-1' } });
    expect(reads).toEqual(['customers/ada', 'customers/ada']);
  });

  it('keeps the newer secret when a read it replaced fails late', async () => {
    const time = clock();
    const late = deferred();
    const { store, reads } = secretStore({
      'customers/ada': [late.promise, JSON.stringify({ id: 'c-2' })],
    });
    const hook = conversationSecretHook(settings({ cache_ttl: 60 }), store, time.now);
    const slow = hook(as('ada'));
    time.advance(60_000);
    const fresh = await hook(as('ada'));

    late.resolve('not json');
    await expect(slow).rejects.toBeInstanceOf(ConversationSecretError);
    const cached = await hook(as('ada'));

    expect([fresh, cached]).toEqual([
      { metadata: { 'x-customer-id': 'c-2' } },
      { metadata: { 'x-customer-id': 'c-2' } },
    ]);
    expect(reads).toEqual(['customers/ada', 'customers/ada']);
  });

  it.each([
    ['text', 'not json: dealer-token-eve'],
    ['a number', '42'],
    ['a string', '"dealer-token-eve"'],
    ['an array', '["dealer-token-eve"]'],
    ['null', 'null'],
  ])('refuses a secret that is %s, naming the secret but no value', async (_, value) => {
    const { store } = secretStore({ 'customers/eve': value });
    const hook = conversationSecretHook(settings(), store);

    const failure = await Promise.resolve(hook(as('eve'))).catch((e: unknown) => e);

    expect(failure).toBeInstanceOf(ConversationSecretError);
    expect(failure).toMatchObject({
      name: 'ConversationSecretError',
      code: 'CONVERSATION_SECRET_INVALID',
      message: 'secret customers/eve is not a JSON object',
    });
  });

  it('refuses a secret without a configured key, naming the key but no value', async () => {
    const { store } = secretStore({ 'customers/ada': JSON.stringify({ token: 'dealer-token' }) });
    const hook = conversationSecretHook(settings(), store);

    const failure = await Promise.resolve(hook(as('ada'))).catch((e: unknown) => e);

    expect(failure).toBeInstanceOf(ConversationSecretError);
    expect(failure).toMatchObject({
      code: 'CONVERSATION_SECRET_INVALID',
      message: 'secret customers/ada has no key id',
    });
  });
});
