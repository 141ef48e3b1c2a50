import { SwitchboardError } from '../resilience/index.js';

/**
 * A peer the turn needs failed in a way a later try may not (a timeout, a lost connection, 429,
 * 5xx), and the turn was asked to leave retrying to its caller: nothing of the turn is kept, so
 * the same message can be handled again later.
 * Code `TURN_UNAVAILABLE`, transient; its kinds below name their own.
 */
export class TurnUnavailableError extends SwitchboardError {
  override readonly name: string = 'TurnUnavailableError';
  override readonly code: string = 'TURN_UNAVAILABLE';
  constructor(
    message: string,
    /** How long the peer asked to wait, when it did. */
    retryAfterMs: number | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, { ...options, transient: true, retryAfterMs });
  }
}

/**
 * The command generator's model is unavailable; thrown before anything of the turn happens.
 * Code `MODEL_UNAVAILABLE`, transient.
 */
export class ModelUnavailableError extends TurnUnavailableError {
  override readonly name = 'ModelUnavailableError';
  override readonly code = 'MODEL_UNAVAILABLE';
}

/** An MCP server a flow's `call` step needs is unavailable. Code `TOOL_UNAVAILABLE`, transient. */
export class ToolUnavailableError extends TurnUnavailableError {
  override readonly name = 'ToolUnavailableError';
  override readonly code = 'TOOL_UNAVAILABLE';
}

/**
 * An engine fault: a flow loops, or names something that does not exist.
 * Code `DIALOGUE_EXECUTION_FAILED`.
 */
export class DialogueExecutionError extends SwitchboardError {
  override readonly name = 'DialogueExecutionError';
  override readonly code = 'DIALOGUE_EXECUTION_FAILED';
}
