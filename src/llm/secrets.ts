import type { SecretRef } from '../assistant/index.js';
import type { Environment } from '../config/index.js';
import { SwitchboardError } from '../resilience/index.js';

/** Turns a credential reference (`{ secret: NAME }`) into its value. */
export interface SecretResolver {
  resolve(ref: SecretRef): Promise<string>;
}

/**
 * A referenced secret has no value. The message names the secret, never a value.
 * Code `SECRET_NOT_SET`.
 */
export class MissingSecretError extends SwitchboardError {
  override readonly name = 'MissingSecretError';
  override readonly code = 'SECRET_NOT_SET';
  readonly secret: string;

  constructor(secret: string, options?: ErrorOptions) {
    super(`the secret ${secret} is not set: define the environment variable ${secret}`, options);
    this.secret = secret;
  }
}

/** Secrets read from environment variables; an unset or empty variable is an error. */
export function environmentSecrets(env: Environment): SecretResolver {
  return {
    resolve: async (ref) => {
      const value = env[ref.secret];
      if (value === undefined || value === '') throw new MissingSecretError(ref.secret);
      return value;
    },
  };
}
