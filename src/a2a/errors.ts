/**
 * Failures of A2A requests. `A2AUnavailableError` is worth another try later (the agent could
 * not be reached, timed out, or failed with 408/429/5xx); `A2ARequestError` is not. Reasons name
 * an HTTP refusal by its status only: an agent's error body may be large or echo what it was sent.
 */
import {
  isTransientNetworkFailure,
  isTransientStatus,
  SwitchboardError,
  safeReason,
  WireError,
} from '../resilience/index.js';

/** The SDK's transports name the status in their messages (`Status: 503`, `stream: 503 …`). */
const HTTP_STATUS = /(?:Status: |establishing stream for \S+: |Agent Card from \S+: )(\d{3})\b/;

/**
 * The agent could not be reached, timed out or failed: a later try may succeed, not before
 * `retryAfterMs` when the agent asked for a wait. Code `A2A_UNAVAILABLE`, transient.
 */
export class A2AUnavailableError extends WireError {
  override readonly name = 'A2AUnavailableError';
  override readonly code = 'A2A_UNAVAILABLE';
  constructor(
    readonly agentName: string,
    message: string,
    options?: { cause?: unknown; retryAfterMs?: number },
  ) {
    super(`A2A agent ${agentName}: ${message}`, { ...options, transient: true });
  }
}

/**
 * The agent refused the request, or answered with something that is not A2A.
 * Code `A2A_REQUEST_REFUSED`.
 */
export class A2ARequestError extends WireError {
  override readonly name = 'A2ARequestError';
  override readonly code = 'A2A_REQUEST_REFUSED';
  constructor(
    readonly agentName: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`A2A agent ${agentName}: ${message}`, options);
  }
}

/** The HTTP status an SDK error reports, if it reports one. */
export function httpStatusOf(error: unknown): number | undefined {
  if (!(error instanceof Error)) return undefined;
  const match = HTTP_STATUS.exec(error.message);
  return match ? Number(match[1]) : undefined;
}

/** Whether a failed request may succeed when tried again later; an error of ours says itself. */
export function isTransientA2AFailure(error: unknown): boolean {
  if (error instanceof SwitchboardError) return error.transient;
  const status = httpStatusOf(error);
  if (status !== undefined) return isTransientStatus(status);
  return isTransientNetworkFailure(error);
}

/** A short reason for logs and outputs, with `redact` applied (credential values removed). */
export function describeA2AFailure(error: unknown, redact: (text: string) => string): string {
  const status = httpStatusOf(error);
  if (status !== undefined) return `the agent answered HTTP ${status}`;
  let text = error instanceof Error ? error.message : String(error);
  if (error instanceof Error && error.name === 'TimeoutError') text = 'the request timed out';
  return safeReason(text, redact);
}

/**
 * Wraps a failure as unavailable (transient, not to be tried again before `retryAfterMs` when
 * given) or refused, with a clean reason.
 */
export function a2aFailure(
  agentName: string,
  error: unknown,
  redact: (text: string) => string,
  retryAfterMs?: number,
): A2AUnavailableError | A2ARequestError {
  if (error instanceof A2AUnavailableError || error instanceof A2ARequestError) return error;
  const reason = describeA2AFailure(error, redact);
  return isTransientA2AFailure(error)
    ? new A2AUnavailableError(agentName, reason, {
        cause: error,
        ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      })
    : new A2ARequestError(agentName, reason, { cause: error });
}
