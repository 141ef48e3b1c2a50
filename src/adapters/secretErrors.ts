/** A secret has no value in the store asked. The message names the secret, never a value. */
export class SecretNotFoundError extends Error {
  override readonly name = 'SecretNotFoundError';
  constructor(
    readonly secret: string,
    readonly where: string,
    options?: { cause?: unknown },
  ) {
    super(`secret ${secret} not found in ${where}`, options);
  }
}

/** A secret store failed for another reason than a missing secret (access, network, bad file). */
export class SecretStoreError extends Error {
  override readonly name = 'SecretStoreError';
  constructor(
    readonly secret: string,
    reason: string,
    options?: { cause?: unknown },
  ) {
    super(`secret ${secret} could not be read: ${reason}`, options);
  }
}
