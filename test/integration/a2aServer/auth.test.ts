import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { callerCheck } from '../../../src/a2aServer/index.js';
import { A2AServerAuth } from '../../../src/assistant/index.js';
import {
  a2aStackSuite,
  asTask,
  sendRequest,
  switchboardClient,
  TaskState,
  userText,
} from '../../helpers/a2aClient.js';
import { jwksServer, jwt, signingKey } from '../../helpers/jwt.js';

const NOW = 1_800_000_000_000;
const seconds = NOW / 1000;
const rsa = signingKey('rsa-1', 'RS256');
const ec = signingKey('ec-1', 'ES256');
const stranger = signingKey('rsa-1', 'RS256');
const claims = {
  iss: 'https://issuer.example',
  aud: 'dealership',
  sub: 'orchestrator',
  exp: seconds + 600,
};
const secrets = {
  get: async (name: string) => ({ JWT_SECRET: 'shared-secret-for-hs256' })[name] ?? '',
};

let jwks: Awaited<ReturnType<typeof jwksServer>>;
beforeAll(async () => {
  jwks = await jwksServer([rsa, ec]);
});
afterAll(async () => {
  await jwks?.close();
});

const withJwks = () =>
  callerCheck(
    A2AServerAuth.parse({ jwks_url: jwks.url, issuer: claims.iss, audience: claims.aud }),
    secrets,
    { now: () => NOW },
  );
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('callers with JWTs', () => {
  it('are let in with a token of a JWKS key, RSA or EC, named by its subject', async () => {
    const check = withJwks();
    expect(await check(bearer(jwt(claims, rsa)))).toEqual({
      name: 'jwt:https://issuer.example:orchestrator',
    });
    expect(await check(bearer(jwt(claims, ec)))).toEqual({
      name: 'jwt:https://issuer.example:orchestrator',
    });
  });

  it.each([
    ['a forged signature', jwt(claims, stranger), 'the JWT signature does not match'],
    ['an expired token', jwt({ ...claims, exp: seconds - 3600 }, rsa), 'the JWT has expired'],
    ['an early token', jwt({ ...claims, nbf: seconds + 3600 }, rsa), 'the JWT is not valid yet'],
    [
      'another issuer',
      jwt({ ...claims, iss: 'https://evil.example' }, rsa),
      'the JWT issuer is not https://issuer.example',
    ],
    [
      'another audience',
      jwt({ ...claims, aud: ['other'] }, rsa),
      'the JWT audience is not dealership',
    ],
    ['an unknown key', jwt(claims, stranger, { kid: 'rsa-9' }), 'no key with id rsa-9 in the JWKS'],
    [
      'alg none',
      `${jwt(claims, rsa, { alg: 'none' }).split('.').slice(0, 2).join('.')}.`,
      'the JWT algorithm none is not accepted here (RS256, ES256)',
    ],
    [
      'a shared-secret token',
      jwt(claims, { secret: 'guess' }),
      'the JWT algorithm HS256 is not accepted here (RS256, ES256)',
    ],
    ['no token at all', undefined, 'no credentials: send a bearer JWT'],
  ])('are refused with %s, saying why', async (_case, token, reason) => {
    await expect(withJwks()(token === undefined ? {} : bearer(token))).rejects.toThrow(reason);
  });

  it('reads the JWKS once, and again for a key id it does not know yet', async () => {
    // The key set's cache and its 30-second cooldown run on the wall clock.
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    try {
      const check = callerCheck(A2AServerAuth.parse({ jwks_url: jwks.url }), secrets, {
        now: () => Date.now(),
      });
      const before = jwks.reads;
      await check(bearer(jwt(claims, rsa)));
      await check(bearer(jwt(claims, ec)));
      expect(jwks.reads - before).toBe(1);
      await expect(check(bearer(jwt(claims, stranger, { kid: 'rotated' })))).rejects.toThrow(
        'no key with id rotated in the JWKS',
      );
      expect(jwks.reads - before).toBe(1);
      vi.setSystemTime(NOW + 60_000);
      await expect(check(bearer(jwt(claims, stranger, { kid: 'rotated' })))).rejects.toThrow(
        /no key/,
      );
      expect(jwks.reads - before).toBe(2);
      vi.setSystemTime(NOW + 6 * 60_000);
      await check(bearer(jwt({ ...claims, exp: seconds + 3600 }, rsa)));
      expect(jwks.reads - before).toBe(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it('refuses tokens without exp, tokens that are no JWT, and says when the JWKS cannot be read', async () => {
    const { exp: _exp, ...noExp } = claims;
    await expect(withJwks()(bearer(jwt(noExp, rsa)))).rejects.toThrow('the JWT has no exp');
    await expect(withJwks()(bearer('opaque-token'))).rejects.toThrow(
      'the bearer token is not a JWT',
    );
    const down = callerCheck(
      A2AServerAuth.parse({ jwks_url: 'http://127.0.0.1:9/jwks.json' }),
      secrets,
      { now: () => NOW },
    );
    await expect(down(bearer(jwt(claims, rsa)))).rejects.toThrow(
      'the JWKS at http://127.0.0.1:9/jwks.json could not be read',
    );
  });

  it('checks HS256 tokens against the shared secret, naming callers apart from the API key', async () => {
    const check = callerCheck(A2AServerAuth.parse({ secret: { secret: 'JWT_SECRET' } }), secrets, {
      now: () => NOW,
    });
    expect(await check(bearer(jwt(claims, { secret: 'shared-secret-for-hs256' })))).toEqual({
      name: 'jwt:https://issuer.example:orchestrator',
    });
    // No subject passes for the API-key caller, whose tasks it would then see.
    const posing = jwt({ ...claims, sub: 'api-key' }, { secret: 'shared-secret-for-hs256' });
    expect(await check(bearer(posing))).toEqual({ name: 'jwt:https://issuer.example:api-key' });
    await expect(check(bearer(jwt(claims, { secret: 'guess' })))).rejects.toThrow(
      'the JWT signature does not match',
    );
  });
});

describe('the A2A server with JWT callers on the local stack', () => {
  const suite = a2aStackSuite(
    () =>
      `  description: Greets people.\n  auth:\n    jwks_url: ${jwks.url}\n    audience: dealership\n`,
  );
  const { llm } = suite;

  it('serves a caller with a valid token and refuses a forged one', async () => {
    const exp = Math.floor(Date.now() / 1000) + 600;
    const valid = await switchboardClient(
      suite.stack.url,
      '1.0',
      bearer(jwt({ ...claims, exp }, rsa)),
    );
    llm.reply('start flow greet');
    const task = asTask(await valid.sendMessage(sendRequest(userText('Greet me'))));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);

    const forged = await switchboardClient(
      suite.stack.url,
      '1.0',
      bearer(jwt({ ...claims, exp }, stranger)),
    );
    await expect(forged.getTask({ tenant: '', id: task.id })).rejects.toThrow(
      /401.*the JWT signature does not match/,
    );
  });

  it('shows a task only to the caller that created it', async () => {
    const exp = Math.floor(Date.now() / 1000) + 600;
    const owner = await switchboardClient(
      suite.stack.url,
      '1.0',
      bearer(jwt({ ...claims, exp }, rsa)),
    );
    const other = await switchboardClient(
      suite.stack.url,
      '1.0',
      bearer(jwt({ ...claims, exp, sub: 'another-orchestrator' }, ec)),
    );
    llm.reply('start flow greet');
    const task = asTask(await owner.sendMessage(sendRequest(userText('Greet me'))));
    const list = (client: typeof owner) =>
      client.listTasks({
        tenant: '',
        contextId: task.contextId,
        status: TaskState.TASK_STATE_UNSPECIFIED,
        pageToken: '',
        statusTimestampAfter: undefined,
      });

    await expect(other.getTask({ tenant: '', id: task.id })).rejects.toThrow(/was not found/);
    await expect(
      other.cancelTask({ tenant: '', id: task.id, metadata: undefined }),
    ).rejects.toThrow(/was not found/);
    await expect(
      other.sendMessage(
        sendRequest(userText('Di', { contextId: task.contextId, taskId: task.id })),
      ),
    ).rejects.toThrow(/was not found/);
    await expect(
      other.sendMessage(sendRequest(userText('Hello', { contextId: task.contextId }))),
    ).rejects.toThrow(/taken by another caller/);
    expect((await list(other)).tasks).toEqual([]);

    expect((await list(owner)).tasks.map((t) => t.id)).toEqual([task.id]);
    expect((await owner.getTask({ tenant: '', id: task.id })).status?.state).toBe(
      TaskState.TASK_STATE_INPUT_REQUIRED,
    );
  });
});
