/**
 * JWT bearer tokens of callers, checked with `jose`: HS256 with a shared secret, or RS256 and
 * ES256 with the keys of a JWKS endpoint (kept five minutes, fetched again for a key id it does
 * not know, at most every 30 seconds). The token must carry `exp` and not be expired, nor early
 * (`nbf`), allowing a minute of clock skew, and must carry the configured `iss` and `aud`. No
 * other algorithm is taken, `none` least of all.
 */
import {
  createRemoteJWKSet,
  customFetch,
  decodeProtectedHeader,
  errors,
  type JWTPayload,
  type JWTVerifyGetKey,
  jwtVerify,
  type ProtectedHeaderParameters,
} from 'jose';
import { SwitchboardError } from '../resilience/index.js';

/** Seconds of clock skew allowed on `exp` and `nbf`. */
const SKEW_SECONDS = 60;
const JWKS_TTL_MS = 5 * 60_000;
const JWKS_REFRESH_MS = 30_000;
const JWKS_TIMEOUT_MS = 5_000;

/** A caller's token is refused; the message says why. Code `A2A_TOKEN_INVALID`. */
export class TokenError extends SwitchboardError {
  override readonly name = 'TokenError';
  override readonly code = 'A2A_TOKEN_INVALID';
}

export interface JwtSettings {
  /** The HS256 secret, resolved when a token comes. */
  readonly secret?: () => Promise<string>;
  readonly jwksUrl?: string;
  readonly issuer?: string;
  readonly audience?: string;
  readonly now: () => number;
  readonly fetch?: typeof fetch;
}

export type Claims = JWTPayload;

/** Checks JWTs against one configuration; keeps the JWKS between calls. */
export class JwtVerifier {
  private readonly algorithms: string[];
  private readonly jwks: JWTVerifyGetKey | undefined;

  constructor(private readonly settings: JwtSettings) {
    const { secret, jwksUrl } = settings;
    this.algorithms = [...(secret ? ['HS256'] : []), ...(jwksUrl ? ['RS256', 'ES256'] : [])];
    this.jwks = jwksUrl
      ? createRemoteJWKSet(new URL(jwksUrl), {
          cacheMaxAge: JWKS_TTL_MS,
          cooldownDuration: JWKS_REFRESH_MS,
          timeoutDuration: JWKS_TIMEOUT_MS,
          ...(settings.fetch ? { [customFetch]: settings.fetch } : {}),
        })
      : undefined;
  }

  /** The token's claims, or a `TokenError` saying why it is refused. */
  async verify(token: string): Promise<Claims> {
    const { alg, kid } = headerOf(token);
    if (!this.algorithms.includes(alg)) {
      throw new TokenError(
        `the JWT algorithm ${alg} is not accepted here (${this.algorithms.join(', ')})`,
      );
    }
    const { issuer, audience } = this.settings;
    try {
      const { payload } = await jwtVerify(token, this.keyFor(alg), {
        algorithms: [alg],
        clockTolerance: SKEW_SECONDS,
        currentDate: new Date(this.settings.now()),
        requiredClaims: ['exp'],
        ...(issuer !== undefined ? { issuer } : {}),
        ...(audience !== undefined ? { audience } : {}),
      });
      return payload;
    } catch (error) {
      // The secret store failing is not the caller's fault: that error goes up as it is.
      if (alg === 'HS256' && !(error instanceof errors.JOSEError)) throw error;
      throw new TokenError(reasonOf(error, kid, this.settings), { cause: error });
    }
  }

  private keyFor(alg: string): JWTVerifyGetKey {
    const { secret } = this.settings;
    if (alg === 'HS256' && secret) {
      return async () => new TextEncoder().encode(await secret());
    }
    // `algorithms` holds RS256 and ES256 only when a JWKS is configured.
    return this.jwks as JWTVerifyGetKey;
  }
}

/** The `alg` and `kid` of the token's header, read before any key is looked up. */
function headerOf(token: string): { alg: string; kid: string | undefined } {
  if (token.split('.').length !== 3) throw new TokenError('the bearer token is not a JWT');
  let header: ProtectedHeaderParameters;
  try {
    header = decodeProtectedHeader(token);
  } catch (error) {
    throw new TokenError('the JWT header is not valid', { cause: error });
  }
  if (typeof header.alg !== 'string') throw new TokenError('the JWT header is not valid');
  return { alg: header.alg, kid: typeof header.kid === 'string' ? header.kid : undefined };
}

/** Why `jose` refused a token, in the words a caller's operator can act on. */
function reasonOf(error: unknown, kid: string | undefined, settings: JwtSettings): string {
  if (error instanceof errors.JWSSignatureVerificationFailed) {
    return 'the JWT signature does not match';
  }
  if (error instanceof errors.JWTExpired) return 'the JWT has expired';
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'nbf') return 'the JWT is not valid yet';
    if (error.claim === 'iss') return `the JWT issuer is not ${settings.issuer}`;
    if (error.claim === 'aud') return `the JWT audience is not ${settings.audience}`;
    if (error.reason === 'missing') return `the JWT has no ${error.claim}`;
    return `the JWT claim ${error.claim} is not valid`;
  }
  if (error instanceof errors.JWKSNoMatchingKey) {
    return `no key${kid ? ` with id ${kid}` : ''} in the JWKS`;
  }
  // A timeout, a status other than 200, a body that is no key set, or no answer at all.
  const unreadable =
    error instanceof errors.JWKSTimeout ||
    error instanceof errors.JWKSInvalid ||
    !(error instanceof errors.JOSEError) ||
    error.code === 'ERR_JOSE_GENERIC';
  if (unreadable) return `the JWKS at ${settings.jwksUrl} could not be read`;
  return `the JWT is not valid: ${error.message}`;
}
