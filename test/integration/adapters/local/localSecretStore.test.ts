import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalSecretStore } from '../../../../src/adapters/local/localSecretStore.js';
import { SecretNotFoundError, SecretStoreError } from '../../../../src/adapters/secretErrors.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'secrets-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('LocalSecretStore', () => {
  it('prefers the secrets file, then falls back to the environment', async () => {
    const file = join(dir, '.secrets.json');
    await writeFile(file, JSON.stringify({ OPENAI_API_KEY: 'from-file' }));
    const store = new LocalSecretStore({
      file,
      env: { OPENAI_API_KEY: 'from-env', MCP_TOKEN: 'env-token' },
    });

    expect(await store.get('OPENAI_API_KEY')).toBe('from-file');
    expect(await store.get('MCP_TOKEN')).toBe('env-token');
  });

  it('works without a secrets file on disk', async () => {
    const store = new LocalSecretStore({ file: join(dir, 'absent.json'), env: { A: 'a' } });

    expect(await store.get('A')).toBe('a');
  });

  it('names a missing secret, treating an empty value as missing', async () => {
    const store = new LocalSecretStore({ env: { EMPTY: '' } });

    const error = await store.get('EMPTY').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(SecretNotFoundError);
    expect((error as Error).message).toBe('secret EMPTY not found in the environment');
  });

  it('refuses a malformed secrets file without quoting it', async () => {
    const file = join(dir, 'bad.json');
    await writeFile(file, '{"KEY": "sk-live-123",');
    const store = new LocalSecretStore({ file, env: {} });

    const error = await store.get('KEY').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(SecretStoreError);
    expect((error as Error).message).toContain('bad.json is not valid JSON');
    expect((error as Error).message).not.toContain('sk-live');
  });
});
