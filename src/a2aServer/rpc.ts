/**
 * JSON-RPC over HTTP, as the SDK's express handler serves it but on the runtime's HTTP seam: the
 * SDK's transport handler of the version the request asks for (`A2A-Version: 1.0`, else 0.3)
 * parses the request and calls the request handler; its answer is the JSON-RPC response, or, for
 * the streaming methods, server-sent events (one JSON-RPC response each). The 0.3 transport loads
 * with the first 0.3 request: a server whose callers all speak 1.0 never loads it.
 */
import { type AgentCard, formatSSEErrorEvent, formatSSEEvent, SSE_HEADERS } from '@a2a-js/sdk';
import { A2A_ERROR_CODE, A2AError } from '@a2a-js/sdk/errors';
import {
  type A2ARequestHandler,
  JsonRpcTransportHandler,
  ServerCallContext,
  validateVersion,
} from '@a2a-js/sdk/server';
import * as z from 'zod/mini';
import { describeError, type Logger } from '../resilience/index.js';
import type { HttpResponse } from '../runtime/index.js';
import type { Caller } from './auth.js';

const LEGACY = '0.3';
/** JSON-RPC 2.0's code for a request that is not JSON. */
const PARSE_ERROR = -32700;

/**
 * Answers one JSON-RPC request of a caller. A failure of ours (the store, the queue) is logged
 * and answered as an internal error without its message, which may name our infrastructure.
 */
export async function serveJsonRpc(
  served: A2ARequestHandler,
  card: AgentCard,
  request: { readonly body: string; readonly version: string | undefined; readonly caller: Caller },
  logger?: Logger,
): Promise<HttpResponse> {
  const handler = guarded(served, logger);
  const version = request.version?.trim() || LEGACY;
  const legacy = version === LEGACY || version.startsWith('0.');
  const context = new ServerCallContext({
    requestedVersion: version,
    user: { isAuthenticated: true, userName: request.caller.name },
  });
  const Legacy = legacy
    ? (await import('@a2a-js/sdk/compat/v0_3/server')).LegacyJsonRpcTransportHandler
    : undefined;
  const mapError = Legacy
    ? Legacy.mapToLegacyJSONRPCError
    : JsonRpcTransportHandler.mapToJSONRPCError;
  const body = parsed(request.body);
  if (!body.ok) {
    return {
      status: 200,
      body: { jsonrpc: '2.0', id: null, error: { code: PARSE_ERROR, message: body.reason } },
    };
  }
  const id = idOf(body.value);
  try {
    validateVersion(legacy ? LEGACY : version, card, 'JSONRPC');
  } catch (error) {
    return { status: 200, body: { jsonrpc: '2.0', id, error: mapError(error) } };
  }
  const transport = Legacy ? new Legacy(handler) : new JsonRpcTransportHandler(handler);
  // Parsed once here: the transport takes a parsed request as it is (anything else it refuses).
  const rpc = isRecord(body.value) ? body.value : request.body;
  const answer = await transport.handle(rpc, context);
  if (!(Symbol.asyncIterator in answer)) {
    const error = answer.error as { code?: unknown } | undefined;
    return { status: error?.code === A2A_ERROR_CODE.INTERNAL_ERROR ? 500 : 200, body: answer };
  }
  // A stream that fails before its first event answers the error as plain JSON-RPC.
  const iterator = answer[Symbol.asyncIterator]();
  let first: IteratorResult<unknown>;
  try {
    first = await iterator.next();
  } catch (error) {
    return { status: 200, body: { jsonrpc: '2.0', id, error: mapError(error) } };
  }
  return {
    status: 200,
    body: undefined,
    headers: { ...SSE_HEADERS },
    stream: (async function* events() {
      try {
        if (!first.done) yield formatSSEEvent(first.value);
        for (;;) {
          const next = await iterator.next();
          if (next.done) return;
          yield formatSSEEvent(next.value);
        }
      } catch (error) {
        yield formatSSEErrorEvent({ jsonrpc: '2.0', id, error: mapError(error) });
      } finally {
        await iterator.return?.(undefined);
      }
    })(),
  };
}

/** The handler with failures that are not the protocol's replaced by a bare internal error. */
function guarded(handler: A2ARequestHandler, logger: Logger | undefined): A2ARequestHandler {
  const hide = (error: unknown): unknown => {
    if (error instanceof A2AError) return error;
    logger?.error('A2A request failed', { error: describeError(error) });
    return new Error('internal error');
  };
  return new Proxy(handler, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const result: unknown = value.apply(target, args);
        if (result instanceof Promise) return result.catch((error) => Promise.reject(hide(error)));
        if (isAsyncIterable(result)) {
          return (async function* guardedStream() {
            try {
              yield* result;
            } catch (error) {
              throw hide(error);
            }
          })();
        }
        return result;
      };
    },
  });
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

/** The body as JSON, or why it is not (JSON-RPC's parse error). */
function parsed(body: string): { ok: true; value: unknown } | { ok: false; reason: string } {
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return { ok: false, reason: `the body is not JSON: ${why}` };
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The request's id, for an error answered before the transport read it. */
function idOf(body: unknown): string | number | null {
  const request = RequestId.safeParse(body);
  return request.success ? (request.data.id ?? null) : null;
}

const RequestId = z.looseObject({ id: z.optional(z.union([z.string(), z.number()])) });
