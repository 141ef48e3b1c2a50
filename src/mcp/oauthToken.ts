import * as z from 'zod';
import type { OAuthConfig } from '../assistant/index.js';
import { timeoutSignal } from '../resilience/index.js';
import type { SecretStore } from '../runtime/index.js';
import { OAuthTokenError } from './errors.js';

/** How long a token request may take when `oauth.timeout` is not set, in seconds. */
const DEFAULT_TIMEOUT_SECONDS = 10;
/** A token is renewed this long before it expires, at most (and at most a tenth of its life). */
const RENEW_MARGIN_MS = 60_000;
/** Lifetime assumed when the endpoint names none. */
const DEFAULT_LIFETIME_MS = 300_000;

const TokenResponse = z.looseObject({
  access_token: z.string().min(1),
  token_type: z.string().optional(),
  expires_in: z.coerce.number().positive().optional(),
});

const ErrorResponse = z.looseObject({
  error: z.string().optional(),
  error_description: z.string().optional(),
});

export interface TokenRequestOptions {
  readonly signal?: AbortSignal;
  /** When the request must be over (ms since the epoch). */
  readonly deadline?: number;
}

/**
 * An OAuth 2.0 client-credentials token, fetched from the configured `token_url` on first use
 * and kept in memory until shortly before it expires. Concurrent callers share one request.
 */
export class ClientCredentialsToken {
  private current: { value: Promise<string>; expiresAt: number } | undefined;

  constructor(
    private readonly oauth: OAuthConfig,
    private readonly secrets: SecretStore,
    private readonly now: () => number = Date.now,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  /** A valid access token. */
  get(options: TokenRequestOptions = {}): Promise<string> {
    const held = this.current;
    if (held && this.now() < held.expiresAt) return held.value;
    const entry = { value: Promise.resolve(''), expiresAt: Number.POSITIVE_INFINITY };
    entry.value = this.request(options).then(
      ({ token, lifetimeMs }) => {
        entry.expiresAt = this.now() + lifetimeMs - Math.min(RENEW_MARGIN_MS, lifetimeMs / 10);
        return token;
      },
      (error: unknown) => {
        if (this.current === entry) this.current = undefined;
        throw error;
      },
    );
    this.current = entry;
    return entry.value;
  }

  /** Forgets the held token (the server refused it); the next `get` asks for a new one. */
  invalidate(): void {
    this.current = undefined;
  }

  private async request(options: TokenRequestOptions): Promise<{
    token: string;
    lifetimeMs: number;
  }> {
    const { oauth } = this;
    const body = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: oauth.client_id,
      client_secret: await this.secrets.get(oauth.client_secret.secret),
    });
    if (oauth.scope) body.set('scope', oauth.scope);
    if (oauth.audience) body.set('audience', oauth.audience);
    let timeoutMs = (oauth.timeout ?? DEFAULT_TIMEOUT_SECONDS) * 1000;
    if (options.deadline !== undefined) {
      timeoutMs = Math.min(timeoutMs, Math.max(0, options.deadline - this.now()));
    }

    let response: Response;
    try {
      response = await this.fetchImpl(oauth.token_url, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body,
        signal: timeoutSignal(timeoutMs, options.signal),
      });
    } catch (error) {
      if (options.signal?.aborted) throw error;
      const reason =
        error instanceof Error && error.name === 'TimeoutError'
          ? `did not answer within ${timeoutMs} ms`
          : `could not be reached (${describe(error)})`;
      throw new OAuthTokenError(oauth.token_url, reason, true, { cause: error });
    }
    const data: unknown = await response.json().catch(() => undefined);
    if (!response.ok) {
      const refusal = ErrorResponse.safeParse(data);
      const detail = refusal.success && refusal.data.error ? `: ${refusal.data.error}` : '';
      const transient = response.status === 429 || response.status >= 500;
      throw new OAuthTokenError(oauth.token_url, `answered ${response.status}${detail}`, transient);
    }
    const parsed = TokenResponse.safeParse(data);
    if (!parsed.success) {
      throw new OAuthTokenError(oauth.token_url, 'answered without an access_token', false);
    }
    const lifetimeMs =
      parsed.data.expires_in !== undefined ? parsed.data.expires_in * 1000 : DEFAULT_LIFETIME_MS;
    return { token: parsed.data.access_token, lifetimeMs };
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? error.cause : undefined;
  const code = cause && 'code' in cause ? String(cause.code) : undefined;
  return code ?? error.message;
}
