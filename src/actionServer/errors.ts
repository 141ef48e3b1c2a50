/**
 * Failures of calls to a Rasa action server. `ActionServerUnavailableError` is worth another try
 * later (the server could not be reached, timed out, or failed with 408, 429 or 5xx); the others
 * are not. Messages name an HTTP failure by its status and never quote a credential.
 */

/** The action server could not be reached, timed out or failed: a later try may succeed. */
export class ActionServerUnavailableError extends Error {
  override readonly name = 'ActionServerUnavailableError';
  /** A later try may succeed. */
  readonly transient = true;
  constructor(
    message: string,
    /** How long the server asked to wait, when it did. */
    readonly retryAfterMs?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * The action server refused the call or answered with something that is not Rasa's action
 * server protocol (no such action, a 4xx, a redirect, a malformed answer).
 */
export class ActionServerError extends Error {
  override readonly name = 'ActionServerError';
  constructor(
    message: string,
    /** The HTTP status of the answer, when there was one. */
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The action is Python for Rasa's in-process action module, which cannot run here. */
export class PythonActionError extends Error {
  override readonly name = 'PythonActionError';
  constructor(
    readonly actionName: string,
    readonly module: string,
  ) {
    super(
      `${actionName} is Python code of Rasa's in-process action module "${module}", which Switchboard cannot run: serve the module from a Rasa action server (rasa run actions) and set action_endpoint.url, or export ${actionName} from custom/actions.ts`,
    );
  }
}
