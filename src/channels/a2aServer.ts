/**
 * The A2A server channel: the assistant as an A2A agent that other orchestrators call (see
 * `src/a2aServer/`). `GET /.well-known/agent-card.json` answers the card, in A2A 1.0's shape to
 * callers that ask for 1.0 (`A2A-Version`) and in 0.3's to the others; `POST /a2a` serves
 * JSON-RPC of both versions, for callers that `a2a_server.auth` lets in (or, without it, with the
 * API token); the channel's output folds the turns' batches into their tasks.
 */
import type { AgentCard } from '@a2a-js/sdk';
import {
  A2A_CHANNEL,
  A2A_RPC_PATH,
  type A2ATaskStore,
  AGENT_CARD_PATH,
  agentCard,
  agentCardJson,
  type Caller,
  CallerRefusedError,
  type CardSource,
  callerCheck,
  legacyAgentCard,
  serveJsonRpc,
  TaskRequestHandler,
  taskOutput,
} from '../a2aServer/index.js';
import type { A2AServerSettings } from '../assistant/index.js';
import type { Logger } from '../resilience/index.js';
import {
  type Channel,
  type ChannelContext,
  HttpError,
  headerOf,
  type RouteRequest,
  requireContentType,
  type SecretStore,
} from '../runtime/index.js';
import { SWITCHBOARD_VERSION } from './version.js';

export const A2A_SERVER_CHANNEL = A2A_CHANNEL;
const DEFAULT_STREAM_LIMIT_MS = 5 * 60_000;
/** Content types of JSON-RPC requests. */
const JSON_TYPES = ['application/json', 'application/a2a+json'];

export interface A2AServerChannelOptions {
  readonly settings: A2AServerSettings;
  /** The project's part of the card: its name and skills (`cardSource`). */
  readonly card: CardSource;
  readonly tasks: A2ATaskStore;
  /** Resolves `a2a_server.auth`'s API key and JWT secret. */
  readonly secrets: SecretStore;
  /** Where this server listens, when known (the local stack's URL); `a2a_server.url` wins. */
  readonly baseUrl?: () => string | undefined;
  /** How long a stream goes on at most (default five minutes); then the caller subscribes again. */
  readonly streamLimitMs?: number;
  /**
   * The key push notification credentials are sealed with (the push key of A2A runs); without
   * one, the server takes no push notification configs.
   */
  readonly pushKey?: () => Promise<string>;
  /** Where push notifications that fail for good are reported. */
  readonly logger?: Logger;
  /** Reads the JWKS and sends push notifications (the global fetch by default). */
  readonly fetch?: typeof fetch;
  /**
   * Whether push notifications may go to addresses in the server's own network (loopback,
   * private, link-local): the local stack allows them, a deployed server does not.
   */
  readonly pushToOwnNetwork?: boolean;
}

export function a2aServerChannel(
  context: ChannelContext,
  options: A2AServerChannelOptions,
): Channel {
  const { settings } = options;
  const check = settings.auth
    ? callerCheck(settings.auth, options.secrets, {
        now: context.now,
        ...(options.fetch ? { fetch: options.fetch } : {}),
      })
    : undefined;
  const pushEnabled = settings.push_notifications && options.pushKey !== undefined;
  const cardFor = (request: RouteRequest): AgentCard =>
    agentCard({
      settings: { ...settings, push_notifications: pushEnabled },
      source: options.card,
      baseUrl: baseUrlOf(request, options),
      version: SWITCHBOARD_VERSION,
    });
  const deps = {
    settings,
    tasks: options.tasks,
    queue: context.queue,
    now: context.now,
    pushEnabled,
    pushToOwnNetwork: options.pushToOwnNetwork ?? false,
    ...(options.pushKey ? { pushKey: options.pushKey } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    sleep: context.sleep,
    replyWaitMs: context.replyWaitMs,
    streamLimitMs: options.streamLimitMs ?? DEFAULT_STREAM_LIMIT_MS,
    ...(context.stopping ? { stopping: context.stopping } : {}),
  };
  return {
    name: A2A_CHANNEL,
    streams: false,
    output: taskOutput({ ...deps, repairWaitsForInput: settings.include_conversation_repair }),
    routes: [
      {
        method: 'GET',
        path: AGENT_CARD_PATH,
        // The card is public, as A2A discovery needs it to be.
        authenticated: false,
        handle: async (request) => {
          const card = cardFor(request);
          const version = headerOf(request, 'a2a-version')?.trim() ?? '';
          const v1 = version !== '' && !version.startsWith('0.');
          return {
            status: 200,
            body: v1 ? agentCardJson(card) : legacyAgentCard(card),
            headers: { vary: 'A2A-Version', 'cache-control': 'public, max-age=300' },
          };
        },
      },
      {
        method: 'POST',
        path: A2A_RPC_PATH,
        // Without a2a_server.auth the API token guards it, as it guards the REST channel.
        authenticated: check === undefined,
        handle: async (request) => {
          const caller: Caller = check ? await authorize(check, request) : { name: 'api-token' };
          requireContentType(headerOf(request, 'content-type'), JSON_TYPES);
          const card = cardFor(request);
          return serveJsonRpc(
            new TaskRequestHandler(deps, card, caller),
            card,
            {
              body: request.body ?? '',
              version: headerOf(request, 'a2a-version'),
              caller,
            },
            options.logger,
          );
        },
      },
    ],
  };
}

async function authorize(
  check: (headers: RouteRequest['headers']) => Promise<Caller>,
  request: RouteRequest,
): Promise<Caller> {
  try {
    return await check(request.headers);
  } catch (error) {
    if (error instanceof CallerRefusedError) {
      throw new HttpError(401, error.message, { 'www-authenticate': 'Bearer' }, { cause: error });
    }
    throw error;
  }
}

/**
 * The base URL callers reach this server at: `a2a_server.url`, else the listening address, else
 * the request's own host and path prefix (behind API Gateway, the host and stage callers used).
 */
function baseUrlOf(request: RouteRequest, options: A2AServerChannelOptions): string {
  const configured = options.settings.url ?? options.baseUrl?.();
  if (configured) return configured;
  const proto = headerOf(request, 'x-forwarded-proto')?.split(',')[0]?.trim() || 'https';
  const prefix = headerOf(request, 'x-forwarded-prefix') ?? '';
  return `${proto}://${headerOf(request, 'host') ?? 'localhost'}${prefix}`;
}
