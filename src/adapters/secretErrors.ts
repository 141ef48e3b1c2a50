import { SwitchboardError } from '../resilience/index.js';

/**
 * A secret has no value in the store asked. The message names the secret, never a value.
 * Code `SECRET_NOT_FOUND`.
 */
export class SecretNotFoundError extends SwitchboardError {
  override readonly name = 'SecretNotFoundError';
  override readonly code = 'SECRET_NOT_FOUND';
  constructor(
    readonly secret: string,
    readonly where: string,
    options?: { cause?: unknown },
  ) {
    super(`secret ${secret} not found in ${where}`, options);
  }
}

/**
 * A secret store failed for another reason than a missing secret (access, network, bad file).
 * Code `SECRET_STORE_FAILED`.
 */
export class SecretStoreError extends SwitchboardError {
  override readonly name = 'SecretStoreError';
  override readonly code = 'SECRET_STORE_FAILED';
  constructor(
    readonly secret: string,
    reason: string,
    options?: { cause?: unknown },
  ) {
    super(`secret ${secret} could not be read: ${reason}`, options);
  }
}
