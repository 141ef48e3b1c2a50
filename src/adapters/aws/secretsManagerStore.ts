import type { SecretsProvider } from '@aws-lambda-powertools/parameters/secrets';
import { getSecret } from '@aws-lambda-powertools/parameters/secrets';
import type { SecretStore } from '../../runtime/ports.js';
import { SecretNotFoundError, SecretStoreError } from '../secretErrors.js';

/** Settings of the Secrets Manager store. */
export interface SecretsManagerSecretStoreOptions {
  /** Prepended to every name: `switchboard/` turns `OPENAI_API_KEY` into `switchboard/OPENAI_API_KEY`. */
  readonly prefix?: string;
  /** Seconds a value stays cached in the warm container (default 300). */
  readonly maxAgeSeconds?: number;
  /** A provider with its own client (endpoint override); default: Powertools' shared provider. */
  readonly provider?: SecretsProvider;
}

const DEFAULT_MAX_AGE_SECONDS = 300;

/** Secrets from AWS Secrets Manager through Powertools, cached per container. */
export class SecretsManagerSecretStore implements SecretStore {
  constructor(private readonly options: SecretsManagerSecretStoreOptions = {}) {}

  async get(name: string): Promise<string> {
    const secretId = `${this.options.prefix ?? ''}${name}`;
    const getOptions = { maxAge: this.options.maxAgeSeconds ?? DEFAULT_MAX_AGE_SECONDS };
    let value: string | Uint8Array | undefined;
    try {
      value = this.options.provider
        ? await this.options.provider.get(secretId, getOptions)
        : await getSecret(secretId, getOptions);
    } catch (error) {
      // Powertools wraps the SDK's error as `cause`.
      const sdkError = error instanceof Error && error.cause !== undefined ? error.cause : error;
      if (isNamed(sdkError, 'ResourceNotFoundException')) {
        throw new SecretNotFoundError(secretId, 'Secrets Manager', { cause: error });
      }
      throw new SecretStoreError(secretId, `Secrets Manager failed (${errorName(sdkError)})`, {
        cause: error,
      });
    }
    if (value === undefined) throw new SecretNotFoundError(secretId, 'Secrets Manager');
    return typeof value === 'string' ? value : new TextDecoder().decode(value);
  }
}

function isNamed(error: unknown, name: string): boolean {
  return error instanceof Error && error.name === name;
}

function errorName(error: unknown): string {
  return error instanceof Error ? error.name : 'unknown error';
}
