import { randomUUID } from 'node:crypto';
import {
  GetSecretValueCommand,
  ResourceNotFoundException,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { SecretsManagerSecretStore } from '../../../../src/adapters/aws/secretsManagerStore.js';
import { SecretNotFoundError, SecretStoreError } from '../../../../src/adapters/secretErrors.js';

const secretsManager = mockClient(SecretsManagerClient);

beforeEach(() => {
  secretsManager.reset();
});
afterAll(() => {
  secretsManager.restore();
});

describe('SecretsManagerSecretStore', () => {
  it('reads a prefixed secret once and serves the second get from its cache', async () => {
    // Unique names: Powertools' default provider and its cache are shared by the whole process.
    const name = `KEY_${randomUUID()}`;
    secretsManager
      .on(GetSecretValueCommand, { SecretId: `switchboard/${name}` })
      .resolves({ SecretString: 'sk-123' });
    const store = new SecretsManagerSecretStore({ prefix: 'switchboard/' });

    expect(await store.get(name)).toBe('sk-123');
    expect(await store.get(name)).toBe('sk-123');
    expect(secretsManager.commandCalls(GetSecretValueCommand)).toHaveLength(1);
  });

  it('fetches again once the cached value is older than maxAge', async () => {
    const name = `KEY_${randomUUID()}`;
    secretsManager.on(GetSecretValueCommand).resolves({ SecretString: 'v' });
    const store = new SecretsManagerSecretStore({ maxAgeSeconds: 0 });

    await store.get(name);
    await store.get(name);

    expect(secretsManager.commandCalls(GetSecretValueCommand)).toHaveLength(2);
  });

  it('names a missing secret, with the SDK error as cause', async () => {
    const name = `MISSING_${randomUUID()}`;
    secretsManager.on(GetSecretValueCommand).rejects(
      new ResourceNotFoundException({
        message: "Secrets Manager can't find the specified secret.",
        $metadata: {},
      }),
    );
    const store = new SecretsManagerSecretStore({ prefix: 'switchboard/' });

    const error = await store.get(name).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(SecretNotFoundError);
    expect((error as Error).message).toBe(
      `secret switchboard/${name} not found in Secrets Manager`,
    );
  });

  it('reports other failures as a store error naming the secret', async () => {
    const name = `DENIED_${randomUUID()}`;
    const denied = new Error('not authorized');
    denied.name = 'AccessDeniedException';
    secretsManager.on(GetSecretValueCommand).rejects(denied);

    const error = await new SecretsManagerSecretStore().get(name).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(SecretStoreError);
    expect((error as Error).message).toBe(
      `secret ${name} could not be read: Secrets Manager failed (AccessDeniedException)`,
    );
  });
});
