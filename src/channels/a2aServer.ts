/**
 * The A2A server channel: the assistant as an A2A agent that other orchestrators call (see
 * `src/a2aServer/`). `GET /.well-known/agent-card.json` answers the card, in A2A 1.0's shape to
 * callers that ask for 1.0 (`A2A-Version`) and in 0.3's to the others.
 */
import { AGENT_CARD_PATH, agentCard, agentCardJson, legacyAgentCard } from '../a2aServer/index.js';
import type { A2AServerSettings, Assistant } from '../assistant/index.js';
import {
  type Channel,
  type ChannelContext,
  headerOf,
  type RouteRequest,
} from '../runtime/index.js';
import { SWITCHBOARD_VERSION } from './version.js';

export const A2A_SERVER_CHANNEL = 'a2a';

export interface A2AServerChannelOptions {
  readonly settings: A2AServerSettings;
  readonly assistant: Pick<Assistant, 'flows' | 'projectDir'>;
  /** Where this server listens, when known (the local stack's URL); `a2a_server.url` wins. */
  readonly baseUrl?: () => string | undefined;
}

export function a2aServerChannel(
  _context: ChannelContext,
  options: A2AServerChannelOptions,
): Channel {
  return {
    name: A2A_SERVER_CHANNEL,
    streams: false,
    routes: [
      {
        method: 'GET',
        path: AGENT_CARD_PATH,
        // The card is public, as A2A discovery needs it to be.
        authenticated: false,
        handle: async (request) => {
          const card = agentCard({
            settings: options.settings,
            assistant: options.assistant,
            baseUrl: baseUrlOf(request, options),
            version: SWITCHBOARD_VERSION,
          });
          const version = headerOf(request, 'a2a-version')?.trim() ?? '';
          const v1 = version !== '' && !version.startsWith('0.');
          return {
            status: 200,
            body: v1 ? agentCardJson(card) : legacyAgentCard(card),
            headers: { vary: 'A2A-Version', 'cache-control': 'public, max-age=300' },
          };
        },
      },
    ],
  };
}

/**
 * The base URL callers reach this server at: `a2a_server.url`, else the listening address, else
 * the request's own host (behind API Gateway or a function URL, the host callers used).
 */
function baseUrlOf(request: RouteRequest, options: A2AServerChannelOptions): string {
  const configured = options.settings.url ?? options.baseUrl?.();
  if (configured) return configured;
  const proto = headerOf(request, 'x-forwarded-proto')?.split(',')[0]?.trim() || 'https';
  return `${proto}://${headerOf(request, 'host') ?? 'localhost'}`;
}
