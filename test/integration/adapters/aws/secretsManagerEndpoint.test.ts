import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretNotFoundError, SecretStoreError } from '../../../../src/adapters/secretErrors.js';
import { type SecretsEndpoint, startSecretsEndpoint } from '../../../helpers/secretsEndpoint.js';

describe('SecretsManagerSecretStore against a GetSecretValue endpoint', () => {
  let endpoint: SecretsEndpoint;
  beforeAll(async () => {
    endpoint = await startSecretsEndpoint({
      'app/TEXT': 'sk-text',
      'app/BINARY': { binary: new TextEncoder().encode('sk-binary') },
      'app/DENIED': { error: 'AccessDeniedException' },
    });
  });
  afterAll(async () => {
    await endpoint?.close();
  });

  it('reads a text secret and a binary one as text, under the prefix', async () => {
    const store = endpoint.store({ prefix: 'app/', maxAgeSeconds: 0 });
    expect(await store.get('TEXT')).toBe('sk-text');
    expect(await store.get('BINARY')).toBe('sk-binary');
  });

  it('keeps a value five minutes by default', async () => {
    const store = endpoint.store({ prefix: 'app/' });
    const before = endpoint.requests.length;
    await store.get('TEXT');
    await store.get('TEXT');
    expect(endpoint.requests.length - before).toBe(1);
  });

  it('tells a missing secret from a refused one, each with the SDK’s error as cause', async () => {
    const store = endpoint.store({ prefix: 'app/', maxAgeSeconds: 0 });

    const missing = await store.get('NOPE').catch((e: unknown) => e);
    const denied = await store.get('DENIED').catch((e: unknown) => e);

    expect(missing).toBeInstanceOf(SecretNotFoundError);
    expect((missing as Error).message).toBe('secret app/NOPE not found in Secrets Manager');
    expect(((missing as Error).cause as Error).name).toBe('GetParameterError');
    expect(denied).toBeInstanceOf(SecretStoreError);
    expect((denied as Error).message).toBe(
      'secret app/DENIED could not be read: Secrets Manager failed (AccessDeniedException)',
    );
    expect((denied as Error).cause).toBeInstanceOf(Error);
  });
});
