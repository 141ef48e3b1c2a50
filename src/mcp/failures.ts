import { SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import {
  isTransientNetworkFailure,
  isTransientStatus,
  SwitchboardError,
} from '../resilience/index.js';
import type { McpCallResult } from './client.js';
import { failureReason } from './reason.js';

/**
 * What a failed MCP request means for the next step:
 * - `unavailable`: unreachable, timed out, 408/429/5xx; a later try may succeed;
 * - `session-lost`: the server forgot the session (404 to a request that carried one);
 * - `legacy-server`: the server refused Streamable HTTP's first request (400, 404, 405): try SSE;
 * - `unauthorized`: 401, the credentials were refused;
 * - `request`: anything else; trying again will not help.
 */
export type Failure = 'unavailable' | 'session-lost' | 'legacy-server' | 'unauthorized' | 'request';

/** The SSE transport reports a refused POST as a plain error naming the status. */
const SSE_POST_FAILURE = /^Error POSTing to endpoint \(HTTP (\d{3})\)/;

/** The HTTP status a transport error reports, if it is one. */
function statusOf(error: unknown): number | undefined {
  if (error instanceof StreamableHTTPError || error instanceof SseError) return error.code ?? -1;
  if (error instanceof Error) {
    const match = SSE_POST_FAILURE.exec(error.message);
    if (match) return Number(match[1]);
  }
  return undefined;
}

/** Classifies a failure of a request; `connecting` tells the first request from later ones. */
export function classifyFailure(error: unknown, connecting = false): Failure {
  // Ours (a token endpoint's failure, say) says itself whether a later try may succeed.
  if (error instanceof SwitchboardError) return error.transient ? 'unavailable' : 'request';
  const status = statusOf(error);
  if (status !== undefined) return classifyStatus(status, connecting);
  if (error instanceof McpError) {
    return error.code === ErrorCode.RequestTimeout || error.code === ErrorCode.ConnectionClosed
      ? 'unavailable'
      : 'request';
  }
  return isTransientNetworkFailure(error) ? 'unavailable' : 'request';
}

function classifyStatus(status: number, connecting: boolean): Failure {
  if (status < 0) return 'unavailable';
  if (status === 401) return 'unauthorized';
  if (connecting && (status === 400 || status === 404 || status === 405)) return 'legacy-server';
  if (status === 404) return 'session-lost';
  return isTransientStatus(status) ? 'unavailable' : 'request';
}

/**
 * A short reason for logs and error results, without the credentials `redactText` removes. An
 * HTTP failure is named by its status only: the body a server answers with is its own and may be
 * large or echo what it was sent.
 */
export function describeFailure(
  error: unknown,
  redactText: (text: string) => string = (text) => text,
): string {
  const status = statusOf(error);
  if (status !== undefined && status >= 0) return `the server answered HTTP ${status}`;
  return failureReason(error, redactText);
}

/** Whether a tool's error result says the server has no such tool (its list changed). */
export function isUnknownToolResult(result: McpCallResult): boolean {
  return result.content.some(
    (part) =>
      typeof part === 'object' &&
      part !== null &&
      'text' in part &&
      typeof part.text === 'string' &&
      /\btool\b.*\b(not found|unknown|disabled)\b|unknown tool/i.test(part.text),
  );
}
