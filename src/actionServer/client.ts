/**
 * One POST to a Rasa action server's webhook, as Rasa makes it: the token as a query parameter,
 * the configured headers, JSON in and out. A failed connection or an answer of 408, 429 or 5xx
 * is tried again after 0.25 s, 0.5 s, 1 s… (`max_retries` times, each wait stretched by up to a
 * fifth at random) while the job's deadline allows; a request that outlasts `timeout` is not,
 * as the action may still be running. Every try carries the same `Idempotency-Key`.
 */
import type { ActionEndpointConfig } from '../assistant/index.js';
import {
  networkCodeOf,
  parseRetryAfter,
  redact,
  retryWait,
  sleep,
  timedSignal,
} from '../resilience/index.js';
import type { SecretStore } from '../runtime/index.js';
import { ActionAnswer } from './answer.js';
import { readLimited, rejectionOf } from './bodies.js';
import { ActionServerError, ActionServerUnavailableError } from './errors.js';

/** The header that carries a call's idempotency key. */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
/** Seconds a call may take when `timeout` is not set, as in Rasa. */
export const DEFAULT_TIMEOUT_S = 10;
/** Retries of a call whose connection failed or that got 408, 429 or 5xx, by default. */
export const DEFAULT_MAX_RETRIES = 2;
/** The wait before the first retry (0.25 s), doubling, stretched by up to a fifth at random. */
export const RETRY_BACKOFF = { baseMs: 250, jitter: 0.2 } as const;
/** The longest `Retry-After` waited for within the call; a longer one ends it. */
const MAX_INLINE_WAIT_MS = 2000;
/** The largest answer read. */
export const MAX_ANSWER_BYTES = 1_000_000;

/**
 * Answers worth another try: the server or a gateway is busy or down. A 500 is not: it is what
 * the Rasa SDK answers when the action itself raised, which a second call would repeat.
 */
const RETRIED_STATUSES = new Set([408, 429, 502, 503, 504]);
/** What a try gives when the call is to be tried again. */
const AGAIN = Symbol('again');

/** What the server answered to one call. */
export type ServerReply =
  | { readonly kind: 'answer'; readonly answer: ActionAnswer }
  | { readonly kind: 'rejected'; readonly reason: string }
  /** The server needs the domain and was not sent it (Rasa SDK's 449). */
  | { readonly kind: 'domain-missing' };

export interface CallOptions {
  readonly idempotencyKey?: string;
  readonly signal?: AbortSignal;
  /** When the call must be over (ms since the epoch). */
  readonly deadline?: number;
}

export interface ActionServerClientOptions {
  readonly endpoint: ActionEndpointConfig & { readonly url: string };
  readonly secrets: SecretStore;
  readonly fetch?: typeof fetch;
  readonly now?: () => number;
  readonly random?: () => number;
}

/** Calls one action server. */
export class ActionServerClient {
  /** The webhook's address as messages and logs name it: no query, no credentials. */
  readonly address: string;
  private readonly fetch: typeof fetch;
  private readonly now: () => number;
  private readonly random: () => number;

  constructor(private readonly options: ActionServerClientOptions) {
    const url = new URL(options.endpoint.url);
    this.address = `${url.origin}${url.pathname}`;
    this.fetch = options.fetch ?? fetch;
    this.now = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
  }

  /** Posts `body` for the action `actionName`; throws the errors of `./errors.js`. */
  async post(actionName: string, body: unknown, call: CallOptions): Promise<ServerReply> {
    const { url, token } = await this.target();
    const init = {
      method: 'POST',
      headers: {
        ...this.options.endpoint.headers,
        'Content-Type': 'application/json',
        Accept: 'application/json',
        ...(call.idempotencyKey ? { [IDEMPOTENCY_HEADER]: call.idempotencyKey } : {}),
      },
      body: JSON.stringify(body),
      // A redirect would carry the token elsewhere.
      redirect: 'manual' as const,
    };
    for (let failures = 1; ; failures++) {
      const timeoutMs = this.timeoutMs(call.deadline);
      if (timeoutMs <= 0) {
        throw new ActionServerUnavailableError(
          `no time was left in the job to call the action server at ${this.address}`,
        );
      }
      // The timer ends with the try: a long timeout leaves nothing running after the answer.
      const timed = timedSignal(timeoutMs, call.signal);
      const reply = await this.attempt(actionName, token, call, failures, timeoutMs, {
        ...init,
        url,
        signal: timed.signal,
      }).finally(() => timed.dispose());
      if (reply !== AGAIN) return reply;
    }
  }

  /** One try of a call: the server's reply, or `AGAIN` once the wait before the next try is over. */
  private async attempt(
    actionName: string,
    token: string | undefined,
    call: CallOptions,
    failures: number,
    timeoutMs: number,
    { url, ...init }: RequestInit & { url: string },
  ): Promise<ServerReply | typeof AGAIN> {
    let response: Response;
    try {
      response = await this.fetch(url, init);
    } catch (error) {
      const failure = this.failure(error, call, timeoutMs);
      // Only a failed connection is tried again here: after a timeout the action may still run.
      const connectionFailed = error instanceof TypeError;
      if (!connectionFailed || !(await this.backOff(failures, call))) {
        throw failure;
      }
      return AGAIN;
    }
    const { status } = response;
    if (status >= 200 && status < 300) {
      return { kind: 'answer', answer: await this.readAnswer(response, call, timeoutMs) };
    }
    if (status === 400)
      return {
        kind: 'rejected',
        reason: await rejectionOf(response, MAX_ANSWER_BYTES, (text) => redact(text, [token])),
      };
    await response.body?.cancel().catch(() => undefined);
    if (status === 449) return { kind: 'domain-missing' };
    if (status === 404) {
      throw new ActionServerError(
        `the action server at ${this.address} has no action ${actionName} (HTTP 404)`,
        status,
      );
    }
    if (status >= 300 && status < 400) {
      throw new ActionServerError(
        `the action server at ${this.address} redirected the call (HTTP ${status}); set action_endpoint.url to the address that answers`,
        status,
      );
    }
    if (!RETRIED_STATUSES.has(status)) {
      const raised = status === 500 ? ' (the action raised an error on the server)' : '';
      throw new ActionServerError(
        `the action server at ${this.address} answered HTTP ${status}${raised}`,
        status,
      );
    }
    const asked = parseRetryAfter(response.headers);
    const failure = new ActionServerUnavailableError(
      `the action server at ${this.address} answered HTTP ${status}`,
      asked,
    );
    if ((asked ?? 0) > MAX_INLINE_WAIT_MS || !(await this.backOff(failures, call, asked))) {
      throw failure;
    }
    return AGAIN;
  }

  /** The webhook's URL with the token as Rasa sends it, resolved now and never kept. */
  private async target(): Promise<{ url: string; token: string | undefined }> {
    const { endpoint, secrets } = this.options;
    const url = new URL(endpoint.url);
    if (!endpoint.token) return { url: url.href, token: undefined };
    const token = await secrets.get(endpoint.token.secret);
    url.searchParams.set(endpoint.token_name ?? 'token', token);
    return { url: url.href, token };
  }

  /** How long the next try may take: `timeout`, within the deadline. */
  private timeoutMs(deadline: number | undefined): number {
    const limit = (this.options.endpoint.timeout ?? DEFAULT_TIMEOUT_S) * 1000;
    return deadline === undefined ? limit : Math.min(limit, deadline - this.now());
  }

  /** Waits before the next try; false when the retries are used up or the deadline leaves no room. */
  private async backOff(failures: number, call: CallOptions, asked?: number): Promise<boolean> {
    const waitMs = retryWait(RETRY_BACKOFF, failures, {
      retries: this.options.endpoint.max_retries ?? DEFAULT_MAX_RETRIES,
      retryAfterMs: asked,
      deadline: call.deadline,
      random: this.random,
      now: this.now,
    });
    if (waitMs === undefined) return false;
    await sleep(waitMs, call.signal);
    return true;
  }

  private async readAnswer(
    response: Response,
    call: CallOptions,
    timeoutMs: number,
  ): Promise<ActionAnswer> {
    let text: string;
    try {
      text = await readLimited(response, MAX_ANSWER_BYTES);
    } catch (error) {
      throw error instanceof ActionServerError
        ? new ActionServerError(`the action server at ${this.address} ${error.message}`, 200)
        : this.failure(error, call, timeoutMs);
    }
    let json: unknown;
    try {
      json = text.trim() === '' ? null : JSON.parse(text);
    } catch (error) {
      throw new ActionServerError(
        `the action server at ${this.address} answered with malformed JSON`,
        response.status,
        { cause: error },
      );
    }
    const parsed = ActionAnswer.safeParse(json);
    if (!parsed.success) {
      throw new ActionServerError(
        `the action server at ${this.address} answered with something other than {events, responses}`,
        response.status,
      );
    }
    return parsed.data;
  }

  /** What a failed request means: unavailable (a later try may succeed), or a refusal. */
  private failure(
    error: unknown,
    call: CallOptions,
    timeoutMs: number,
  ): ActionServerUnavailableError | ActionServerError {
    if (call.signal?.aborted) throw call.signal.reason ?? error;
    if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
      return new ActionServerUnavailableError(
        `the action server at ${this.address} did not answer within ${formatSeconds(timeoutMs)}`,
        undefined,
        { cause: error },
      );
    }
    if (error instanceof TypeError) {
      const code = networkCodeOf(error);
      return new ActionServerUnavailableError(
        `could not reach the action server at ${this.address}${code ? ` (${code})` : ''}; is it running?`,
        undefined,
        { cause: error },
      );
    }
    return new ActionServerError(
      `the call to the action server at ${this.address} failed`,
      undefined,
      { cause: error },
    );
  }
}

function formatSeconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}
