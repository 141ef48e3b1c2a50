import { timingSafeEqual } from 'node:crypto';
import type { ConversationStore, JobQueue, ReplyStore } from '../runtime/ports.js';
import { parseRestWebhook, RestRequestError, restMessageJob, toRestReply } from './rest.js';
import { readTracker } from './tracker.js';

/** An HTTP request, whatever carried it (node:http locally, API Gateway on AWS). */
export interface HttpRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly body?: string;
}

export interface HttpResponse {
  readonly status: number;
  readonly body: unknown;
}

export interface HttpApiDeps {
  readonly queue: JobQueue;
  readonly replies: ReplyStore;
  readonly store: ConversationStore;
  readonly newId: () => string;
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;
  /** How long the REST webhook waits for the turn to settle before answering with what it has. */
  readonly replyWaitMs: number;
  /** When set, requests must carry `Authorization: Bearer <token>`. */
  readonly authToken?: string;
  /** Aborted when the server stops: a waiting webhook answers with what it has. */
  readonly stopping?: AbortSignal;
}

const TRACKER = /^\/conversations\/([^/]+)\/tracker\/?$/;

/**
 * Switchboard's HTTP contract: `GET /health`, the REST channel `POST /webhooks/rest/webhook`
 * (answers once the turn settles, or with what it has after a bounded wait), and
 * `GET /conversations/{sender}/tracker`.
 */
export async function handleHttp(request: HttpRequest, deps: HttpApiDeps): Promise<HttpResponse> {
  const path = request.path.split('?')[0] ?? '';
  try {
    if (path === '/health' || path === '/') {
      return request.method === 'GET' ? { status: 200, body: { status: 'ok' } } : notAllowed('GET');
    }
    if (path === '/webhooks/rest/webhook') {
      if (request.method !== 'POST') return notAllowed('POST');
      authorize(request, deps);
      return await restWebhook(request, deps);
    }
    const tracker = TRACKER.exec(path);
    if (tracker) {
      if (request.method !== 'GET') return notAllowed('GET');
      authorize(request, deps);
      return {
        status: 200,
        body: await readTracker(deps.store, senderOf(tracker[1] ?? '')),
      };
    }
    return { status: 404, body: { error: `no route for ${request.method} ${path}` } };
  } catch (error) {
    if (error instanceof RestRequestError)
      return { status: error.status, body: { error: error.message } };
    throw error;
  }
}

async function restWebhook(request: HttpRequest, deps: HttpApiDeps): Promise<HttpResponse> {
  const body = parseRestWebhook(request.body, header(request, 'content-type'));
  const job = restMessageJob(body, deps.newId);
  await deps.queue.enqueue([job]);
  const deadline = deps.now() + deps.replyWaitMs;
  let wait = 20;
  for (;;) {
    const replies = await deps.replies.read(job.conversation_id, job.turn_id);
    if (replies.settled || deps.now() >= deadline || deps.stopping?.aborted) {
      return { status: 200, body: replies.messages.map(toRestReply) };
    }
    await deps.sleep(Math.min(wait, Math.max(0, deadline - deps.now())));
    wait = Math.min(wait * 2, 250);
  }
}

function authorize(request: HttpRequest, deps: HttpApiDeps): void {
  if (!deps.authToken) return;
  const given = /^Bearer\s+(.+)$/i.exec(header(request, 'authorization') ?? '')?.[1] ?? '';
  const expected = Buffer.from(deps.authToken);
  const actual = Buffer.from(given);
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) {
    throw new RestRequestError(401, 'missing or wrong bearer token');
  }
}

function header(request: HttpRequest, name: string): string | undefined {
  const key = Object.keys(request.headers).find((k) => k.toLowerCase() === name);
  return key === undefined ? undefined : request.headers[key];
}

function senderOf(encoded: string): string {
  try {
    return decodeURIComponent(encoded);
  } catch {
    throw new RestRequestError(400, 'the sender id in the path is not valid percent-encoding');
  }
}

function notAllowed(allowed: string): HttpResponse {
  return { status: 405, body: { error: `method not allowed; use ${allowed}` } };
}
