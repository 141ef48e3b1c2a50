/**
 * The assistant's agent card: A2A 1.0 (`supportedInterfaces`) and the A2A 0.3 shape of the same
 * card (top-level `url`), for callers that ask for 0.3 or name no version. Skills come from
 * `a2a_server.skills`, or one per flow from its description (patterns too, when conversation
 * repair is reported). A static card (`agent_card_path`) gives name, description and skills; the
 * interfaces, capabilities and security are always the ones served.
 */
import { AgentCard } from '@a2a-js/sdk';
import type { A2AServerSettings } from '../assistant/index.js';
import type { CardSource } from './skills.js';

/** Where A2A requests go, under the base URL: JSON-RPC, both protocol versions. */
export const A2A_RPC_PATH = '/a2a';
/** The card's well-known path. */
export const AGENT_CARD_PATH = '/.well-known/agent-card.json';
/** Security scheme names in the card. */
const API_KEY_SCHEME = 'apiKey';
const BEARER_SCHEME = 'bearer';
/** The header an API key comes in. */
export const API_KEY_HEADER = 'X-API-Key';

const MODES = ['text/plain', 'application/json'];

export interface CardOptions {
  readonly settings: A2AServerSettings;
  /** The project's name and skills (`cardSource`). */
  readonly source: CardSource;
  /** Where callers reach this server (`a2a_server.url` wins). */
  readonly baseUrl: string;
  /** The card's version: Switchboard's. */
  readonly version: string;
}

/** The A2A 1.0 card. */
export function agentCard(options: CardOptions): AgentCard {
  const { settings } = options;
  const base = settings.staticCard ? AgentCard.fromJSON(settings.staticCard) : undefined;
  const url = `${(settings.url ?? options.baseUrl).replace(/\/+$/, '')}${A2A_RPC_PATH}`;
  const auth = settings.auth;
  const schemes: Record<string, unknown> = {};
  if (auth?.api_key) {
    schemes[API_KEY_SCHEME] = {
      apiKeySecurityScheme: { location: 'header', name: API_KEY_HEADER, description: 'API key' },
    };
  }
  if (auth?.secret || auth?.jwks_url) {
    schemes[BEARER_SCHEME] = {
      httpAuthSecurityScheme: { scheme: 'Bearer', bearerFormat: 'JWT', description: 'JWT' },
    };
  }
  return AgentCard.fromJSON({
    name: settings.name ?? base?.name ?? options.source.projectName,
    description: base?.description || settings.description,
    version: base?.version || options.version,
    supportedInterfaces: ['1.0', '0.3'].map((protocolVersion) => ({
      url,
      protocolBinding: 'JSONRPC',
      protocolVersion,
    })),
    capabilities: { streaming: true, pushNotifications: settings.push_notifications },
    securitySchemes: schemes,
    securityRequirements: Object.keys(schemes).map((name) => ({
      schemes: { [name]: { list: [] } },
    })),
    defaultInputModes: MODES,
    defaultOutputModes: MODES,
    skills: base && base.skills.length > 0 ? base.skills : options.source.skills,
  });
}

/** The 1.0 card as JSON (the protocol's JSON form of the card). */
export function agentCardJson(card: AgentCard): unknown {
  return AgentCard.toJSON(card);
}

/**
 * The card in A2A 0.3's shape: the first interface's URL on top, JSON-RPC as the preferred
 * transport, security schemes in OpenAPI form, and the 1.0 interfaces alongside, so that a 1.0
 * client reading it still finds them.
 */
export function legacyAgentCard(card: AgentCard): Record<string, unknown> {
  const v1 = AgentCard.toJSON(card) as Record<string, unknown>;
  const legacy = card.supportedInterfaces.find((i) => i.protocolVersion === '0.3');
  const schemes: Record<string, Record<string, string>> = {};
  for (const [name, { scheme }] of Object.entries(card.securitySchemes)) {
    if (scheme?.$case === 'apiKeySecurityScheme') {
      schemes[name] = { type: 'apiKey', in: scheme.value.location, name: scheme.value.name };
    } else if (scheme?.$case === 'httpAuthSecurityScheme') {
      const format = scheme.value.bearerFormat;
      schemes[name] = {
        type: 'http',
        scheme: 'bearer',
        ...(format ? { bearerFormat: format } : {}),
      };
    }
  }
  return {
    name: card.name,
    description: card.description,
    version: card.version,
    url: legacy?.url ?? card.supportedInterfaces[0]?.url ?? '',
    preferredTransport: 'JSONRPC',
    protocolVersion: '0.3',
    capabilities: {
      streaming: card.capabilities?.streaming ?? false,
      pushNotifications: card.capabilities?.pushNotifications ?? false,
    },
    defaultInputModes: card.defaultInputModes,
    defaultOutputModes: card.defaultOutputModes,
    skills: card.skills.map((s) => ({
      id: s.id,
      name: s.name,
      description: s.description,
      tags: s.tags,
      ...(s.examples.length > 0 ? { examples: s.examples } : {}),
    })),
    ...(Object.keys(schemes).length > 0
      ? { securitySchemes: schemes, security: Object.keys(schemes).map((n) => ({ [n]: [] })) }
      : {}),
    supportedInterfaces: v1.supportedInterfaces,
  };
}
