/**
 * The command generator's model failed in a way a later try may not (a timeout, a lost
 * connection, 429, 5xx), and the turn was asked to leave retrying to its caller: nothing of the
 * turn happened, so the same message can be handled again later.
 */
export class ModelUnavailableError extends Error {
  override readonly name = 'ModelUnavailableError';
  constructor(
    message: string,
    /** How long the model's server asked to wait, when it did. */
    readonly retryAfterMs: number | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** An engine fault: a flow loops, or names something that does not exist. */
export class DialogueExecutionError extends Error {
  override readonly name = 'DialogueExecutionError';
}
