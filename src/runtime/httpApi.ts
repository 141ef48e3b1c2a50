/**
 * The HTTP API: one route table over the routes of all channels. A path no route has answers
 * 404; a path with routes for other methods answers 405 with `Allow`; a route that needs the API
 * token checks it before it runs; an `HttpError` becomes its status and `{"error": reason}`.
 */
import { timingSafeEqual } from 'node:crypto';
import {
  type Channel,
  HttpError,
  type HttpRequest,
  type HttpResponse,
  type Route,
} from './channel.js';

/** The largest request body read; each route may allow less. */
export const MAX_BODY_BYTES = 256 * 1024;

export interface HttpApiOptions {
  /** The bearer token authenticated routes need; none when it resolves to undefined. */
  readonly authToken?: () => Promise<string | undefined>;
}

export interface HttpApi {
  handle(request: HttpRequest): Promise<HttpResponse>;
}

interface CompiledRoute {
  readonly route: Route;
  readonly pattern: RegExp;
  readonly names: readonly string[];
}

/** The route table of the given channels. */
export function createHttpApi(channels: readonly Channel[], options: HttpApiOptions = {}): HttpApi {
  const routes = channels.flatMap((channel) => channel.routes.map(compile));
  return {
    handle: async (request) => {
      try {
        if (request.body !== undefined && Buffer.byteLength(request.body) > MAX_BODY_BYTES) {
          throw bodyTooLarge();
        }
        return await dispatch(request, routes, options);
      } catch (error) {
        if (!(error instanceof HttpError)) throw error;
        const headers = Object.keys(error.headers).length > 0 ? { headers: error.headers } : {};
        return { status: error.status, body: { error: error.message }, ...headers };
      }
    },
  };
}

/** The refusal of a body over `MAX_BODY_BYTES`. */
export function bodyTooLarge(): HttpError {
  return new HttpError(413, `the body is larger than ${MAX_BODY_BYTES} bytes`);
}

async function dispatch(
  request: HttpRequest,
  routes: readonly CompiledRoute[],
  options: HttpApiOptions,
): Promise<HttpResponse> {
  const path = request.path.split('?')[0] ?? '';
  const matching = routes.flatMap((r) => {
    const match = r.pattern.exec(path);
    return match ? [{ ...r, values: match.slice(1) }] : [];
  });
  if (matching.length === 0) {
    throw new HttpError(404, `no route for ${request.method} ${path}`);
  }
  const found = matching.find((r) => r.route.method === request.method);
  if (!found) {
    const allowed = [...new Set(matching.map((r) => r.route.method))].join(', ');
    throw new HttpError(405, `method not allowed; use ${allowed}`, { allow: allowed });
  }
  if (found.route.authenticated) await authorize(request, options);
  const params = Object.fromEntries(
    found.names.map((name, i) => [name, decode(name, found.values[i])]),
  );
  return found.route.handle({ ...request, params });
}

function compile(route: Route): CompiledRoute {
  const names: string[] = [];
  const source = route.path
    .split('/')
    .map((segment) => {
      const param = /^\{(\w+)\}$/.exec(segment);
      if (!param?.[1]) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(param[1]);
      return '([^/]+)';
    })
    .join('/');
  return { route, pattern: new RegExp(`^${source}/?$`), names };
}

/** A path parameter decoded; parameters are ids (`{sender}` is the sender id). */
function decode(name: string, value: string | undefined): string {
  try {
    return decodeURIComponent(value ?? '');
  } catch {
    throw new HttpError(400, `the ${name} id in the path is not valid percent-encoding`);
  }
}

async function authorize(request: HttpRequest, options: HttpApiOptions): Promise<void> {
  const token = await options.authToken?.();
  if (!token) return;
  const given = /^Bearer\s+(.+)$/i.exec(headerOf(request, 'authorization') ?? '')?.[1] ?? '';
  const expected = Buffer.from(token);
  const actual = Buffer.from(given);
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) {
    throw new HttpError(401, 'missing or wrong bearer token');
  }
}

/** A request header by name, in any letter case. */
export function headerOf(request: HttpRequest, name: string): string | undefined {
  const key = Object.keys(request.headers).find((k) => k.toLowerCase() === name);
  return key === undefined ? undefined : request.headers[key];
}
