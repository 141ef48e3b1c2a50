/**
 * The errors of Switchboard. Every one extends `SwitchboardError`, directly or through a family
 * base, and carries what a retry decision reads: `code`, a stable name of the failure (each
 * class documents its own); `transient`, whether a later try may succeed; and `retryAfterMs`,
 * the least wait for it when the failure named one. Decisions read these, never lists of classes.
 *
 * Two families, kept apart as the MCP SDK keeps its protocol and SDK errors: `WireError`s are
 * what a peer answered (or failed to) over the wire, mapped from SDK and fetch errors at the
 * adapter's edge, with the HTTP status when there was one, and the refusals we answer over HTTP;
 * every other error is local (configuration, state, our own infrastructure, a bug of a hook).
 */

/** What an error is built with besides its message. */
export interface SwitchboardErrorOptions {
  readonly cause?: unknown;
  /** A later try may succeed (default false). */
  readonly transient?: boolean;
  /** The least wait before a later try, when the failure named one (a `Retry-After`). */
  readonly retryAfterMs?: number | undefined;
}

/** The base of every Switchboard error; see the module's comment. */
export abstract class SwitchboardError extends Error {
  abstract override readonly name: string;
  /** A stable name of the failure, such as `MCP_UNAVAILABLE`, to branch on, count or alert on. */
  abstract readonly code: string;
  /** Whether a later try may succeed. */
  readonly transient: boolean;
  /** The least wait before a later try, when the failure named one. */
  readonly retryAfterMs: number | undefined;

  constructor(message: string, options: SwitchboardErrorOptions = {}) {
    super(message, 'cause' in options ? { cause: options.cause } : undefined);
    this.transient = options.transient ?? false;
    this.retryAfterMs = options.retryAfterMs;
  }
}

/** What a wire error is built with: also the HTTP status, when the peer answered with one. */
export interface WireErrorOptions extends SwitchboardErrorOptions {
  readonly status?: number | undefined;
}

/**
 * A failure on the wire: a peer (an LLM, an MCP server, an A2A agent, an action server, a token
 * endpoint) refused a request or could not be reached, or a request to us is refused.
 */
export abstract class WireError extends SwitchboardError {
  /** The HTTP status of the answer, when there was one. */
  readonly status: number | undefined;

  constructor(message: string, options: WireErrorOptions = {}) {
    super(message, options);
    this.status = options.status;
  }
}

/**
 * Whether a later try may succeed: the error says `transient: true`. Read by shape, so that a
 * port or a user's hook may throw an error of its own that says so.
 */
export function isTransient(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && 'transient' in error && error.transient === true
  );
}

/** The least wait before a later try that an error names, if it names one. */
export function retryAfterOf(error: unknown): number | undefined {
  const value =
    typeof error === 'object' && error !== null && 'retryAfterMs' in error
      ? error.retryAfterMs
      : undefined;
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** The `code` of a Switchboard error, or undefined for any other error. */
export function codeOf(error: unknown): string | undefined {
  return error instanceof SwitchboardError ? error.code : undefined;
}
