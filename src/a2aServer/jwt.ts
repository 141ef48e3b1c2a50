/**
 * JWT bearer tokens of callers, checked with node's crypto: HS256 with a shared secret, or RS256
 * and ES256 with the keys of a JWKS endpoint (fetched once, kept five minutes, fetched again for a
 * key id it does not know, at most every 30 seconds). The token must not be expired (`exp`) nor
 * early (`nbf`), allowing a minute of clock skew, and must carry the configured `iss` and `aud`.
 * No other algorithm is taken, `none` least of all.
 */
import { createHmac, createPublicKey, type KeyObject, timingSafeEqual, verify } from 'node:crypto';
import { z } from 'zod';
import { SwitchboardError } from '../resilience/index.js';

/** Seconds of clock skew allowed on `exp` and `nbf`. */
const SKEW_SECONDS = 60;
const JWKS_TTL_MS = 5 * 60_000;
const JWKS_REFRESH_MS = 30_000;

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

const Header = z.looseObject({ alg: z.string(), kid: z.string().optional() });
const Claims = z.looseObject({
  exp: z.number({ error: 'has no exp' }),
  nbf: z.number().optional(),
  iss: z.string().optional(),
  aud: z.union([z.string(), z.array(z.string())]).optional(),
  sub: z.string().optional(),
});
export type Claims = z.infer<typeof Claims>;
const Jwks = z.object({
  keys: z.array(z.looseObject({ kty: z.string(), kid: z.string().optional() })),
});

/** Checks JWTs against one configuration; keeps the JWKS between calls. */
export class JwtVerifier {
  private jwks: { keys: Map<string | undefined, JwksKey>; at: number } | undefined;
  private fetching: Promise<void> | undefined;

  constructor(private readonly settings: JwtSettings) {}

  /** The token's claims, or a `TokenError` saying why it is refused. */
  async verify(token: string): Promise<Claims> {
    const [header64, payload64, signature64, ...rest] = token.split('.');
    if (!header64 || !payload64 || signature64 === undefined || rest.length > 0) {
      throw new TokenError('the bearer token is not a JWT');
    }
    const header = Header.safeParse(decodeJson(header64));
    if (!header.success) throw new TokenError('the JWT header is not valid');
    const signed = Buffer.from(`${header64}.${payload64}`);
    const signature = Buffer.from(signature64, 'base64url');
    await this.checkSignature(header.data.alg, header.data.kid, signed, signature);
    const claims = Claims.safeParse(decodeJson(payload64));
    if (!claims.success) {
      throw new TokenError(`the JWT ${claims.error.issues[0]?.message ?? 'claims are not valid'}`);
    }
    this.checkClaims(claims.data);
    return claims.data;
  }

  private async checkSignature(
    alg: string,
    kid: string | undefined,
    signed: Buffer,
    signature: Buffer,
  ): Promise<void> {
    const { secret, jwksUrl } = this.settings;
    if (alg === 'HS256' && secret) {
      const expected = createHmac('sha256', await secret())
        .update(signed)
        .digest();
      if (expected.length !== signature.length || !timingSafeEqual(expected, signature)) {
        throw new TokenError('the JWT signature does not match');
      }
      return;
    }
    if ((alg === 'RS256' || alg === 'ES256') && jwksUrl) {
      const key = await this.keyFor(kid, alg);
      const ok =
        alg === 'RS256'
          ? verify('sha256', signed, key, signature)
          : verify('sha256', signed, { key, dsaEncoding: 'ieee-p1363' }, signature);
      if (!ok) throw new TokenError('the JWT signature does not match');
      return;
    }
    const taken = [secret ? 'HS256' : undefined, jwksUrl ? 'RS256, ES256' : undefined]
      .filter((a) => a !== undefined)
      .join(', ');
    throw new TokenError(`the JWT algorithm ${alg} is not accepted here (${taken})`);
  }

  private checkClaims(claims: Claims): void {
    const now = Math.floor(this.settings.now() / 1000);
    if (claims.exp + SKEW_SECONDS < now) throw new TokenError('the JWT has expired');
    if (claims.nbf !== undefined && claims.nbf - SKEW_SECONDS > now) {
      throw new TokenError('the JWT is not valid yet');
    }
    const { issuer, audience } = this.settings;
    if (issuer !== undefined && claims.iss !== issuer) {
      throw new TokenError(`the JWT issuer is not ${issuer}`);
    }
    if (audience !== undefined) {
      const aud = typeof claims.aud === 'string' ? [claims.aud] : (claims.aud ?? []);
      if (!aud.includes(audience)) throw new TokenError(`the JWT audience is not ${audience}`);
    }
  }

  private async keyFor(kid: string | undefined, alg: 'RS256' | 'ES256'): Promise<KeyObject> {
    const now = this.settings.now();
    if (!this.jwks || now - this.jwks.at > JWKS_TTL_MS) await this.loadJwks();
    let key = this.pick(kid);
    if (!key && this.jwks && now - this.jwks.at > JWKS_REFRESH_MS) {
      // A key id not seen yet: the issuer may have rotated its keys.
      await this.loadJwks();
      key = this.pick(kid);
    }
    if (!key) throw new TokenError(`no key${kid ? ` with id ${kid}` : ''} in the JWKS`);
    const kty = alg === 'RS256' ? 'RSA' : 'EC';
    if (key.kty !== kty || (key.alg !== undefined && key.alg !== alg)) {
      throw new TokenError(`the JWKS key${kid ? ` ${kid}` : ''} is not for ${alg}`);
    }
    return key.key;
  }

  private pick(kid: string | undefined): JwksKey | undefined {
    const keys = this.jwks?.keys;
    if (!keys) return undefined;
    if (kid !== undefined) return keys.get(kid);
    return keys.size === 1 ? keys.values().next().value : undefined;
  }

  private async loadJwks(): Promise<void> {
    this.fetching ??= this.fetchJwks().finally(() => {
      this.fetching = undefined;
    });
    await this.fetching;
  }

  private async fetchJwks(): Promise<void> {
    const url = this.settings.jwksUrl ?? '';
    let body: unknown;
    try {
      const response = await (this.settings.fetch ?? fetch)(url, {
        signal: AbortSignal.timeout(5_000),
      });
      if (!response.ok) throw new Error(`status ${response.status}`);
      body = await response.json();
    } catch (error) {
      throw new TokenError(`the JWKS at ${url} could not be read`, { cause: error });
    }
    const jwks = Jwks.safeParse(body);
    if (!jwks.success) throw new TokenError(`the JWKS at ${url} is not a key set`);
    const keys = new Map<string | undefined, JwksKey>();
    for (const jwk of jwks.data.keys) {
      try {
        const key = createPublicKey({ key: jwk, format: 'jwk' });
        keys.set(jwk.kid, {
          kty: jwk.kty,
          alg: typeof jwk.alg === 'string' ? jwk.alg : undefined,
          key,
        });
      } catch {
        // A key node cannot read (another type) is left out; tokens signed with it are refused.
      }
    }
    this.jwks = { keys, at: this.settings.now() };
  }
}

interface JwksKey {
  readonly kty: string;
  readonly alg: string | undefined;
  readonly key: KeyObject;
}

function decodeJson(part: string): unknown {
  try {
    return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}
