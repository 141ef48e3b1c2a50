/**
 * Who may call the A2A server, per `a2a_server.auth`: an API key (`X-API-Key`, or as a bearer
 * token), and/or a JWT bearer token (see `jwt.ts`). A refused call is a `CallerRefusedError`
 * whose message says why; the channel answers it 401.
 */
import type { A2AServerAuth } from '../assistant/index.js';
import { SwitchboardError } from '../resilience/index.js';
import { BlankTokenError, type SecretStore, sameSecret } from '../runtime/index.js';
import { JwtVerifier, TokenError } from './jwt.js';

/** A caller was refused; the message says why. Code `A2A_CALLER_REFUSED`. */
export class CallerRefusedError extends SwitchboardError {
  override readonly name = 'CallerRefusedError';
  override readonly code = 'A2A_CALLER_REFUSED';
}

/**
 * An authenticated caller: `jwt:<iss>:<sub>` for a JWT (every token of an issuer without a subject
 * is one caller), `api-key` for the API key, `api-token` for the REST API token.
 */
export interface Caller {
  readonly name: string;
}

export type Headers = Readonly<Record<string, string | undefined>>;

/** Checks the callers of one server; keeps the JWKS between calls. */
export function callerCheck(
  auth: A2AServerAuth,
  secrets: SecretStore,
  options: { now: () => number; fetch?: typeof fetch },
): (headers: Headers) => Promise<Caller> {
  const jwt =
    auth.secret || auth.jwks_url
      ? new JwtVerifier({
          ...(auth.secret ? { secret: secretOf(secrets, auth.secret.secret) } : {}),
          ...(auth.jwks_url ? { jwksUrl: auth.jwks_url } : {}),
          ...(auth.issuer ? { issuer: auth.issuer } : {}),
          ...(auth.audience ? { audience: auth.audience } : {}),
          now: options.now,
          ...(options.fetch ? { fetch: options.fetch } : {}),
        })
      : undefined;
  const apiKey = auth.api_key ? secretOf(secrets, auth.api_key.secret) : undefined;
  return async (headers) => {
    const given = header(headers, 'x-api-key');
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header(headers, 'authorization') ?? '')?.[1];
    if (apiKey) {
      const key = await apiKey();
      // A blank key is a configuration fault, never "no authentication".
      if (key.trim() === '') throw new BlankTokenError();
      if (given !== undefined) {
        if (sameSecret(given, key)) return { name: 'api-key' };
        throw new CallerRefusedError('the API key is wrong');
      }
      if (bearer !== undefined && sameSecret(bearer, key)) return { name: 'api-key' };
    }
    if (jwt && bearer !== undefined) {
      try {
        const claims = await jwt.verify(bearer);
        // Prefixed, so that no token's subject can pass for the API-key caller; per issuer, so that
        // two issuers' subjects of the same name stay apart.
        return { name: `jwt:${claims.iss ?? ''}:${claims.sub ?? ''}` };
      } catch (error) {
        if (error instanceof TokenError)
          throw new CallerRefusedError(error.message, { cause: error });
        throw error;
      }
    }
    const wanted = [
      apiKey ? 'an API key in X-API-Key' : undefined,
      jwt ? 'a bearer JWT' : undefined,
    ];
    if (bearer !== undefined && !jwt) throw new CallerRefusedError('the bearer token is wrong');
    throw new CallerRefusedError(
      `no credentials: send ${wanted.filter((w) => w !== undefined).join(' or ')}`,
    );
  };
}

function secretOf(secrets: SecretStore, name: string): () => Promise<string> {
  return () => secrets.get(name);
}

function header(headers: Headers, name: string): string | undefined {
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  return key === undefined ? undefined : headers[key];
}
