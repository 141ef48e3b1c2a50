import type { McpServer } from '../assistant/index.js';
import { Redactor } from '../resilience/index.js';
import type { SecretStore } from '../runtime/index.js';
import { ClientCredentialsToken, type TokenRequestOptions } from './oauthToken.js';

/** The authentication keys of an MCP server or an A2A agent (`api_key`, `oauth`, `token`, …). */
export type AuthSettings = Pick<
  McpServer,
  'api_key' | 'header_name' | 'header_format' | 'oauth' | 'token'
>;

/** The credentials a server's requests carry, resolved when a request is made. */
export interface ServerAuth {
  /** Headers for the next request. Values are secrets: never log them. */
  headers(options?: TokenRequestOptions): Promise<Record<string, string>>;
  /**
   * The server refused the credentials: forgets any that can be fetched anew and says whether
   * a new try may be accepted (an OAuth token can be renewed; a static key cannot).
   */
  renew(): boolean;
  /** `text` with every credential value this server's requests carried replaced. */
  redact(text: string): string;
}

/** `api_key` without `header_name` goes to `Authorization`; `header_format` defaults to Bearer. */
const DEFAULT_HEADER = 'Authorization';
const DEFAULT_FORMAT = 'Bearer {key}';

/**
 * The authentication `endpoints.yml` configures for a server, or an A2A agent's `auth` (seed rules): an API key in
 * `Authorization: Bearer <key>` or in `header_name` formatted by `header_format`; an OAuth 2.0
 * client-credentials token; a pre-issued token as a bearer token; or nothing.
 */
export function serverAuth(
  server: AuthSettings,
  secrets: SecretStore,
  options: { readonly now?: () => number; readonly fetch?: typeof fetch } = {},
): ServerAuth {
  const sent = new Redactor();
  const remember = (value: string) => sent.remember(value);
  const redact = (text: string) => sent.redact(text);
  const bearer = async (value: Promise<string>) => ({
    [DEFAULT_HEADER]: `Bearer ${remember(await value)}`,
  });

  if (server.api_key) {
    const ref = server.api_key;
    const header = server.header_name ?? DEFAULT_HEADER;
    const format = server.header_format ?? DEFAULT_FORMAT;
    return {
      headers: async () => {
        const key = remember(await secrets.get(ref.secret));
        // A function replacement: `$` in a key is no replacement pattern.
        return { [header]: format.replaceAll('{key}', () => key) };
      },
      renew: () => false,
      redact,
    };
  }
  if (server.token) {
    const ref = server.token;
    return { headers: () => bearer(secrets.get(ref.secret)), renew: () => false, redact };
  }
  if (server.oauth) {
    const token = new ClientCredentialsToken(server.oauth, secrets, options.now, options.fetch);
    return {
      headers: (request) => bearer(token.get(request)),
      renew: () => {
        token.invalidate();
        return true;
      },
      redact,
    };
  }
  return { headers: async () => ({}), renew: () => false, redact };
}
