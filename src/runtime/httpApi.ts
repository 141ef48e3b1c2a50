/**
 * The HTTP API: one route table over the routes of all channels. A path no route has answers
 * 404; a path with routes for other methods answers 405 with `Allow`; `HEAD` runs the `GET` route
 * and answers without a body. Before a route runs, in this order: the API token (if the route
 * needs it: a bearer token or Rasa's `?token=`), the path parameters, then the body, read only
 * now and refused over `MAX_BODY_BYTES`. An `HttpError` becomes its status and `{"error": reason}`.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { SwitchboardError } from '../resilience/index.js';
import {
  type Channel,
  HttpError,
  type HttpRequest,
  type HttpResponse,
  type ParamCheck,
  type RequestBody,
  type Route,
} from './channel.js';
import { senderIdProblem } from './senderId.js';

/** The one limit on request bodies, in bytes, wherever the API is served. */
export const MAX_BODY_BYTES = 64 * 1024;

export interface HttpApiOptions {
  /**
   * The bearer token authenticated routes need; none when it resolves to undefined. A blank
   * token is a configuration fault (`BlankTokenError`), never "no authentication".
   */
  readonly authToken?: () => Promise<string | undefined>;
}

export interface HttpApi {
  handle(request: HttpRequest): Promise<HttpResponse>;
}

/**
 * The configured API token is empty or whitespace: authenticated routes cannot be served.
 * Code `API_TOKEN_BLANK`.
 */
export class BlankTokenError extends SwitchboardError {
  override readonly name = 'BlankTokenError';
  override readonly code = 'API_TOKEN_BLANK';
  constructor() {
    super('the API token is configured but blank');
  }
}

/**
 * A secret a route checks requests with is configured but blank: a configuration fault, never a
 * key anyone could sign with. The functions answer it 503 and log the secret's name.
 * Code `SECRET_BLANK`.
 */
export class BlankSecretError extends SwitchboardError {
  override readonly name = 'BlankSecretError';
  override readonly code = 'SECRET_BLANK';
  constructor(readonly secret: string) {
    super(`the secret ${secret} is blank`);
  }
}

/** Checks every route gets for parameters of these names. */
const PARAM_CHECKS: Readonly<Record<string, ParamCheck>> = { sender: senderIdProblem };

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
      const response = await answer(request, routes, options);
      if (request.method !== 'HEAD') return response;
      const { stream: _stream, ...head } = response;
      return { ...head, body: undefined };
    },
  };
}

/** The refusal of a body over `MAX_BODY_BYTES`. */
export function bodyTooLarge(): HttpError {
  return new HttpError(413, `the body is larger than ${MAX_BODY_BYTES} bytes`);
}

async function answer(
  request: HttpRequest,
  routes: readonly CompiledRoute[],
  options: HttpApiOptions,
): Promise<HttpResponse> {
  try {
    return await dispatch(request, routes, options);
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    const headers = Object.keys(error.headers).length > 0 ? { headers: error.headers } : {};
    return { status: error.status, body: { error: error.message }, ...headers };
  }
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
  const method = request.method === 'HEAD' ? 'GET' : request.method;
  const found = matching.find((r) => r.route.method === method);
  if (!found) {
    const allowed = [...new Set(matching.map((r) => r.route.method))].join(', ');
    throw new HttpError(405, `method not allowed; use ${allowed}`, { allow: allowed });
  }
  if (found.route.authenticated) await authorize(request, options);
  const params = Object.fromEntries(
    found.names.map((name, i) => [name, param(found.route, name, found.values[i])]),
  );
  const { body: unread, ...head } = request;
  const body = await readBody(unread);
  return found.route.handle({ ...head, params, ...(body === undefined ? {} : { body }) });
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

/** A path parameter decoded and checked; parameters are ids (`{sender}` is the sender id). */
function param(route: Route, name: string, value: string | undefined): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(value ?? '');
  } catch {
    throw new HttpError(400, `the ${name} id in the path is not valid percent-encoding`);
  }
  for (const check of [PARAM_CHECKS[name], route.params?.[name]]) {
    const problem = check?.(decoded);
    if (problem !== undefined) throw new HttpError(400, `the ${name} id in the path ${problem}`);
  }
  return decoded;
}

async function readBody(body: RequestBody | undefined): Promise<string | undefined> {
  const text = typeof body === 'function' ? await body() : body;
  if (text !== undefined && Buffer.byteLength(text) > MAX_BODY_BYTES) throw bodyTooLarge();
  return text;
}

/**
 * The API token, given as `Authorization: Bearer <token>` or, as Rasa's HTTP API takes it, as
 * the `token` query parameter. Both are compared, each in constant time.
 */
async function authorize(request: HttpRequest, options: HttpApiOptions): Promise<void> {
  const token = await options.authToken?.();
  if (token === undefined) return;
  if (token.trim() === '') throw new BlankTokenError();
  const bearer = /^Bearer\s+(.+)$/i.exec(headerOf(request, 'authorization') ?? '')?.[1] ?? '';
  const query = new URLSearchParams(request.path.split('?')[1] ?? '').get('token') ?? '';
  // Both are compared, so that which one was given takes no time of its own to tell.
  const byHeader = sameSecret(bearer, token);
  const byQuery = sameSecret(query, token);
  if (!byHeader && !byQuery) {
    throw new HttpError(401, 'missing or wrong bearer token');
  }
}

/**
 * Whether a secret given in a request is the expected one, compared as SHA-256 digests in
 * constant time: the comparison reveals neither the secret nor its length.
 */
export function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** A request header by name, in any letter case. */
export function headerOf(request: Pick<HttpRequest, 'headers'>, name: string): string | undefined {
  const lower = name.toLowerCase();
  const key = Object.keys(request.headers).find((k) => k.toLowerCase() === lower);
  return key === undefined ? undefined : request.headers[key];
}

/**
 * Refuses with 415 and the reason a request body whose Content-Type is missing or none of
 * `types` (parameters such as `charset` aside): a route never guesses the body's type. `what`
 * names the format in the reason (`JSON`, `form-encoded`).
 */
export function requireContentType(
  contentType: string | undefined,
  types: readonly string[] = ['application/json'],
  what = 'JSON',
): void {
  const given = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  if (types.includes(given)) return;
  const sent = given === '' ? 'the request has none' : `the request sent ${given}`;
  throw new HttpError(
    415,
    `the body must be ${what} (Content-Type: ${types.join(' or ')}); ${sent}`,
  );
}
