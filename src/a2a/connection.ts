/**
 * The connection to one A2A agent, kept per process (per warm container): its card (from the
 * project's file, or fetched from its URL and kept for `CARD_TTL_MS`), an SDK client over the
 * card's transports (JSON-RPC, HTTP+JSON, and gRPC where the card offers nothing else; A2A 1.0
 * and 0.3), the agent's credentials on
 * every request, and the health check made before first use.
 */
import { randomUUID } from 'node:crypto';
import type { AgentCard } from '@a2a-js/sdk';
import {
  type Client,
  ClientFactory,
  createAuthenticatingFetchWithRetry,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  type RequestOptions,
  RestTransportFactory,
} from '@a2a-js/sdk/client';
import type { A2ASubAgent } from '../assistant/index.js';
import { type ServerAuth, serverAuth } from '../mcp/auth.js';
import { timeoutSignal, within } from '../resilience/index.js';
import type { SecretStore } from '../runtime/index.js';
import { A2ARequestError, type A2AUnavailableError, a2aFailure } from './errors.js';
import { healthCheckMessage, outputOfMessage, outputOfTask } from './messages.js';
import { retryingFetch } from './retryingFetch.js';

/** How long a card fetched from a URL is kept before it is fetched again. */
export const CARD_TTL_MS = 5 * 60_000;
/** How long a request may take when the job's deadline leaves more (no `timeout` configured). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

/** What a request runs under: the job's signal and the moment its calls must be over. */
export interface CallScope {
  readonly signal: AbortSignal;
  readonly deadline?: number;
}

interface Built {
  readonly client: Client;
  readonly card: AgentCard;
}

export interface A2AConnectionOptions {
  readonly agent: A2ASubAgent;
  readonly secrets: SecretStore;
  readonly now?: () => number;
  readonly fetch?: typeof fetch;
}

export class A2AConnection {
  private current: { built: Promise<Built>; expiresAt: number } | undefined;
  private health: Promise<void> | undefined;
  private readonly now: () => number;
  readonly auth: ServerAuth;
  private readonly fetchImpl: typeof fetch;
  /** Until when the agent asked not to be called again (a `Retry-After` too long to wait in). */
  private waitUntil = 0;

  constructor(private readonly options: A2AConnectionOptions) {
    this.now = options.now ?? Date.now;
    this.auth = serverAuth(options.agent.configuration.auth ?? {}, options.secrets, {
      now: this.now,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
    // Each request (the card's too) retried after a failed connection or a 408, 429 or 5xx.
    const base = retryingFetch(
      options.fetch ?? fetch,
      options.agent.configuration.max_retries,
      Math.random,
      (waitMs) => {
        this.waitUntil = Math.max(this.waitUntil, this.now() + waitMs);
      },
    );
    // The agent's credentials on every request; an OAuth token it refuses is renewed once.
    this.fetchImpl = createAuthenticatingFetchWithRetry(base, {
      headers: () => this.auth.headers(),
      shouldRetryWithHeaders: async (_request, response) =>
        response.status === 401 && this.auth.renew() ? this.auth.headers() : undefined,
    });
  }

  get name(): string {
    return this.options.agent.name;
  }

  /** The client, built from the card; a fetched card is fetched again once its TTL is over. */
  async client(scope: CallScope): Promise<Client> {
    return (await this.built(scope)).client;
  }

  /** The card the client was built from. */
  async card(scope: CallScope): Promise<AgentCard> {
    return (await this.built(scope)).card;
  }

  private built(scope: CallScope): Promise<Built> {
    const now = this.now();
    if (!this.current || this.current.expiresAt <= now) {
      const built = this.build();
      const source = this.options.agent.agentCard;
      this.current = { built, expiresAt: source.kind === 'url' ? now + CARD_TTL_MS : Infinity };
      // A failed build is not kept: the next caller tries again.
      built.catch(() => {
        if (this.current?.built === built) this.current = undefined;
      });
    }
    return within(this.current.built, { signal: scope.signal });
  }

  /**
   * The health check: a small test message the agent must answer with a message or a task. Made
   * once per container before first use; a failed check is not kept (the next use checks again).
   */
  async ensureHealthy(scope: CallScope): Promise<void> {
    if (!this.health) {
      const check = this.check(scope);
      this.health = check;
      check.catch(() => {
        if (this.health === check) this.health = undefined;
      });
    }
    return within(this.health, { signal: scope.signal });
  }

  /**
   * Request options within the scope: the job's signal and a timeout within its deadline; over
   * gRPC, whose requests bypass fetch, the agent's credentials as call metadata.
   */
  async requestOptions(
    scope: CallScope,
    client: Client,
    extra: Omit<RequestOptions, 'signal'> = {},
  ): Promise<RequestOptions> {
    const credentials =
      client.transport.protocolName === GRPC
        ? { serviceParameters: await lowercased(this.auth.headers()) }
        : {};
    return { ...extra, ...credentials, signal: requestSignal(scope, this.timeoutMs(scope)) };
  }

  /** How long a request may take: `configuration.timeout`, within the job's deadline. */
  timeoutMs(scope: CallScope): number {
    const configured = this.options.agent.configuration.timeout;
    const limit = configured !== undefined ? configured * 1000 : DEFAULT_REQUEST_TIMEOUT_MS;
    return scope.deadline === undefined
      ? limit
      : Math.max(0, Math.min(limit, scope.deadline - this.now()));
  }

  /**
   * Wraps a failure as unavailable (not to be tried again before the wait the agent asked for)
   * or refused, with credentials removed from its reason.
   */
  failure(error: unknown): A2AUnavailableError | A2ARequestError {
    const waitMs = this.waitUntil - this.now();
    return a2aFailure(
      this.name,
      error,
      (text) => this.auth.redact(text),
      waitMs > 0 ? waitMs : undefined,
    );
  }

  private async build(): Promise<Built> {
    const legacyCompat = { enabled: true };
    const fetchImpl = this.fetchImpl;
    const resolver = new DefaultAgentCardResolver({ legacyCompat, fetchImpl });
    const source = this.options.agent.agentCard;
    try {
      const card =
        source.kind === 'url'
          ? await resolver.resolve(source.url, '')
          : resolver.normalizeAgentCard(source.card);
      // gRPC only where the card offers no HTTP interface: it is not loaded otherwise.
      const grpc = offersHttp(card) ? [] : [(await import('./grpc.js')).grpcTransportFactory(card)];
      const factory = new ClientFactory({
        transports: [
          new JsonRpcTransportFactory({ legacyCompat, fetchImpl }),
          new RestTransportFactory({ legacyCompat, fetchImpl }),
          ...grpc,
        ],
        // HTTP first where the card offers it: a refused OAuth token is renewed there.
        preferredTransports: [...HTTP_BINDINGS, ...grpc.map(() => GRPC)],
      });
      const client = await factory.createFromAgentCard(card);
      return { client, card: await client.getAgentCard() };
    } catch (error) {
      throw this.failure(error);
    }
  }

  private async check(scope: CallScope): Promise<void> {
    const client = await this.client(scope);
    let answer: Awaited<ReturnType<Client['sendMessage']>>;
    try {
      answer = await client.sendMessage(
        {
          tenant: '',
          message: healthCheckMessage(`health-${randomUUID()}`),
          configuration: {
            acceptedOutputModes: [],
            taskPushNotificationConfig: undefined,
            // The agent's final answer: a failing agent fails its task at once.
            returnImmediately: false,
          },
          metadata: undefined,
        },
        await this.requestOptions(scope, client),
      );
    } catch (error) {
      throw this.failure(error);
    }
    const failed = isTask(answer) ? outputOfTask('health', answer) : outputOfMessage('h', answer);
    if (failed?.status === 'fatal_error') {
      // The caller says it was the health check; this says what the agent answered.
      throw new A2ARequestError(this.name, failed.errorMessage ?? 'the agent failed the check');
    }
  }
}

const GRPC = 'GRPC';
const HTTP_BINDINGS = ['JSONRPC', 'HTTP+JSON'];

/** Whether the card offers an interface over HTTP (JSON-RPC or HTTP+JSON). */
function offersHttp(card: AgentCard): boolean {
  return card.supportedInterfaces.some((i) => HTTP_BINDINGS.includes(i.protocolBinding));
}

/** gRPC metadata keys are lower case. */
async function lowercased(
  headers: Promise<Record<string, string>>,
): Promise<Record<string, string>> {
  return Object.fromEntries(Object.entries(await headers).map(([k, v]) => [k.toLowerCase(), v]));
}

/** Whether a send's answer is a task (the other kind is a message). */
export function isTask(
  answer: Awaited<ReturnType<Client['sendMessage']>>,
): answer is Extract<typeof answer, { status: unknown }> {
  return 'status' in answer && 'artifacts' in answer;
}

/** A signal that aborts with the job's, or after `timeoutMs`. */
export function requestSignal(scope: CallScope, timeoutMs: number): AbortSignal {
  return timeoutSignal(timeoutMs, scope.signal);
}
