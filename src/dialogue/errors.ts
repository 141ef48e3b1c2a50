/**
 * A peer the turn needs failed in a way a later try may not (a timeout, a lost connection, 429,
 * 5xx), and the turn was asked to leave retrying to its caller: nothing of the turn is kept, so
 * the same message can be handled again later.
 */
export class TurnUnavailableError extends Error {
  override readonly name: string = 'TurnUnavailableError';
  constructor(
    message: string,
    /** How long the peer asked to wait, when it did. */
    readonly retryAfterMs: number | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The command generator's model is unavailable; thrown before anything of the turn happens. */
export class ModelUnavailableError extends TurnUnavailableError {
  override readonly name = 'ModelUnavailableError';
}

/** An MCP server a flow's `call` step needs is unavailable. */
export class ToolUnavailableError extends TurnUnavailableError {
  override readonly name = 'ToolUnavailableError';
}

/** Whether a port's error says a later try may succeed (it carries `transient: true`). */
export function isTransientFailure(error: unknown): boolean {
  return error instanceof Error && 'transient' in error && error.transient === true;
}

/** An engine fault: a flow loops, or names something that does not exist. */
export class DialogueExecutionError extends Error {
  override readonly name = 'DialogueExecutionError';
}
