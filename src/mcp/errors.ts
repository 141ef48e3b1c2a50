/**
 * Errors of the MCP client. `McpUnavailableError` is worth another try later (the server could
 * not be reached, timed out or failed); the others are not.
 */
import { SwitchboardError, WireError } from '../resilience/index.js';

/**
 * The server could not be reached, timed out, or failed: a later try may succeed.
 * Code `MCP_UNAVAILABLE`, transient.
 */
export class McpUnavailableError extends WireError {
  override readonly name = 'McpUnavailableError';
  override readonly code = 'MCP_UNAVAILABLE';
  constructor(
    readonly serverName: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`MCP server ${serverName}: ${message}`, { ...options, transient: true });
  }
}

/**
 * The server refused the request (unknown tool, invalid arguments, refused credentials).
 * Code `MCP_REQUEST_REFUSED`.
 */
export class McpRequestError extends WireError {
  override readonly name = 'McpRequestError';
  override readonly code = 'MCP_REQUEST_REFUSED';
  constructor(
    readonly serverName: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`MCP server ${serverName}: ${message}`, options);
  }
}

/**
 * A call refused before it reached a server: the tool is not offered to the caller.
 * Code `MCP_TOOL_NOT_OFFERED`.
 */
export class McpToolRefusedError extends SwitchboardError {
  override readonly name = 'McpToolRefusedError';
  override readonly code = 'MCP_TOOL_NOT_OFFERED';
}

/**
 * A `pre_call_hook` threw or returned something other than metadata; the call was not made.
 * Code `PRE_CALL_HOOK_FAILED`.
 */
export class PreCallHookError extends SwitchboardError {
  override readonly name = 'PreCallHookError';
  override readonly code = 'PRE_CALL_HOOK_FAILED';
  constructor(
    readonly hook: string,
    reason: string,
    options?: { cause?: unknown },
  ) {
    super(`pre_call_hook ${hook} ${reason}`, options);
  }
}

/**
 * The OAuth token endpoint refused or failed. The message never quotes a credential.
 * Code `OAUTH_TOKEN_FAILED`, transient after a timeout, a network failure, 429 or 5xx.
 */
export class OAuthTokenError extends WireError {
  override readonly name = 'OAuthTokenError';
  override readonly code = 'OAUTH_TOKEN_FAILED';
  constructor(
    readonly tokenUrl: string,
    reason: string,
    /** Whether a later try may succeed (timeout, network, 429, 5xx). */
    transient: boolean,
    options?: { cause?: unknown },
  ) {
    super(`token endpoint ${tokenUrl} ${reason}`, { ...options, transient });
  }
}
