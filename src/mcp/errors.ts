/**
 * Errors of the MCP client. `McpUnavailableError` is worth another try later (the server could
 * not be reached, timed out or failed); the others are not.
 */

/** The server could not be reached, timed out, or failed: a later try may succeed. */
export class McpUnavailableError extends Error {
  override readonly name = 'McpUnavailableError';
  /** A later try may succeed. */
  readonly transient = true;
  constructor(
    readonly serverName: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`MCP server ${serverName}: ${message}`, options);
  }
}

/** The server refused the request (unknown tool, invalid arguments, refused credentials). */
export class McpRequestError extends Error {
  override readonly name = 'McpRequestError';
  constructor(
    readonly serverName: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`MCP server ${serverName}: ${message}`, options);
  }
}

/** A call refused before it reached a server: the tool is not offered to the caller. */
export class McpToolRefusedError extends Error {
  override readonly name = 'McpToolRefusedError';
}

/** A `pre_call_hook` threw or returned something other than metadata; the call was not made. */
export class PreCallHookError extends Error {
  override readonly name = 'PreCallHookError';
  constructor(
    readonly hook: string,
    reason: string,
    options?: { cause?: unknown },
  ) {
    super(`pre_call_hook ${hook} ${reason}`, options);
  }
}

/** The OAuth token endpoint refused or failed. The message never quotes a credential. */
export class OAuthTokenError extends Error {
  override readonly name = 'OAuthTokenError';
  constructor(
    readonly tokenUrl: string,
    reason: string,
    /** Whether a later try may succeed (timeout, network, 429, 5xx). */
    readonly transient: boolean,
    options?: { cause?: unknown },
  ) {
    super(`token endpoint ${tokenUrl} ${reason}`, options);
  }
}
