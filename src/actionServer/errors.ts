/**
 * Failures of calls to a Rasa action server. `ActionServerUnavailableError` is worth another try
 * later (the server could not be reached, timed out, or failed with 408, 429 or 5xx); the others
 * are not. Messages name an HTTP failure by its status and never quote a credential.
 */
import { SwitchboardError, WireError } from '../resilience/index.js';

/**
 * The action server could not be reached, timed out or failed: a later try may succeed.
 * Code `ACTION_SERVER_UNAVAILABLE`, transient.
 */
export class ActionServerUnavailableError extends WireError {
  override readonly name = 'ActionServerUnavailableError';
  override readonly code = 'ACTION_SERVER_UNAVAILABLE';
  constructor(
    message: string,
    /** How long the server asked to wait, when it did. */
    retryAfterMs?: number,
    options?: { cause?: unknown },
  ) {
    super(message, { ...options, transient: true, retryAfterMs });
  }
}

/**
 * The action server refused the call or answered with something that is not Rasa's action
 * server protocol (no such action, a 4xx, a redirect, a malformed answer).
 * Code `ACTION_SERVER_REFUSED`.
 */
export class ActionServerError extends WireError {
  override readonly name = 'ActionServerError';
  override readonly code = 'ACTION_SERVER_REFUSED';
  constructor(
    message: string,
    /** The HTTP status of the answer, when there was one. */
    status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, { ...options, status });
  }
}

/**
 * The action is Python for Rasa's in-process action module, which cannot run here.
 * Code `ACTION_IS_PYTHON`.
 */
export class PythonActionError extends SwitchboardError {
  override readonly name = 'PythonActionError';
  override readonly code = 'ACTION_IS_PYTHON';
  constructor(
    readonly actionName: string,
    readonly module: string,
  ) {
    super(
      `${actionName} is Python code of Rasa's in-process action module "${module}", which Switchboard cannot run: serve the module from a Rasa action server (rasa run actions) and set action_endpoint.url, or export ${actionName} from custom/actions.ts`,
    );
  }
}
