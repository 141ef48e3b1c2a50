import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import { z } from 'zod';
import type { ChatMessage, LlmPort } from '../dialogue/ports.js';

/** OpenAI's public API, written out so the SDK never falls back to `process.env`. */
export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

/** Everything an OpenAI-compatible chat model needs, credentials already resolved. */
export interface OpenAiChatSettings {
  readonly model: string;
  /** Defaults to OpenAI's public API. */
  readonly baseURL?: string;
  readonly apiKey: string;
  readonly timeoutMs?: number;
  readonly maxTokens?: number;
  readonly temperature?: number;
  /** The SDK retries 429, 5xx and connection errors this many times (SDK default: 2). */
  readonly maxRetries?: number;
  /** Further request body fields, such as `top_p` or `reasoning_effort`. */
  readonly extra?: Readonly<Record<string, unknown>>;
}

/** A chat-completions request failed: HTTP error, connection error, timeout or odd response. */
export class LlmRequestError extends Error {
  override readonly name = 'LlmRequestError';
  /** The HTTP status, when the server answered. */
  readonly status: number | undefined;
  /** Worth trying again later: a timeout, a lost connection, 408, 409, 429 or a 5xx. */
  readonly transient: boolean;
  /** How long the server asked to wait (`Retry-After`, `retry-after-ms`), when it did. */
  readonly retryAfterMs: number | undefined;

  constructor(
    message: string,
    options: ErrorOptions & {
      status?: number | undefined;
      transient?: boolean;
      retryAfterMs?: number | undefined;
    } = {},
  ) {
    super(message, options);
    this.status = options.status;
    this.transient = options.transient ?? isTransientStatus(options.status);
    this.retryAfterMs = options.retryAfterMs;
  }
}

/** No status (no answer: timeout, connection) or one that a later try may not get. */
function isTransientStatus(status: number | undefined): boolean {
  return (
    status === undefined || status === 408 || status === 409 || status === 429 || status >= 500
  );
}

// Only what we use; OpenAI-compatible servers differ in everything else.
const CompletionResponse = z.object({
  choices: z
    .array(z.object({ message: z.object({ content: z.string().nullish() }).nullish() }))
    .nullish(),
});

/** An `LlmPort` over any OpenAI-compatible chat-completions endpoint (non-streaming). */
export class OpenAiChatModel implements LlmPort {
  private readonly client: OpenAI;
  private readonly settings: OpenAiChatSettings;

  constructor(settings: OpenAiChatSettings) {
    this.settings = settings;
    this.client = new OpenAI({
      apiKey: settings.apiKey,
      baseURL: settings.baseURL ?? OPENAI_DEFAULT_BASE_URL,
      ...(settings.timeoutMs !== undefined ? { timeout: settings.timeoutMs } : {}),
      ...(settings.maxRetries !== undefined ? { maxRetries: settings.maxRetries } : {}),
    });
  }

  async complete(request: {
    readonly messages: readonly ChatMessage[];
    readonly signal?: AbortSignal;
    readonly deadline?: number;
  }): Promise<{ readonly content: string }> {
    const { model, maxTokens, temperature, extra } = this.settings;
    const timeout = this.timeoutUntil(request.deadline);
    if (timeout !== undefined && timeout <= 0) {
      throw new LlmRequestError(`${this.describe()} timed out: no time was left for it`, {
        transient: true,
      });
    }
    let response: unknown;
    try {
      response = await this.client.chat.completions.create(
        {
          ...extra,
          model,
          messages: request.messages.map(({ role, content }) => ({ role, content })),
          ...(maxTokens !== undefined ? { max_tokens: maxTokens } : {}),
          ...(temperature !== undefined ? { temperature } : {}),
          stream: false,
        },
        {
          ...(request.signal ? { signal: request.signal } : {}),
          ...(timeout !== undefined ? { timeout } : {}),
        },
      );
    } catch (error) {
      // Like fetch: an aborted call rejects with the signal's reason (a timeout's, a shutdown's).
      if (request.signal?.aborted) throw request.signal.reason;
      throw this.requestError(error);
    }
    const parsed = CompletionResponse.safeParse(response);
    if (!parsed.success) {
      throw new LlmRequestError(`${this.describe()} answered with an unexpected response body`, {
        cause: parsed.error,
      });
    }
    return { content: parsed.data.choices?.[0]?.message?.content ?? '' };
  }

  private requestError(error: unknown): LlmRequestError {
    const status = error instanceof APIError ? error.status : undefined;
    const detail = this.redact(error instanceof Error ? error.message : String(error));
    const what =
      error instanceof APIConnectionTimeoutError
        ? 'timed out'
        : status !== undefined
          ? `failed with HTTP ${status}`
          : 'failed';
    const headers = error instanceof APIError ? error.headers : undefined;
    return new LlmRequestError(`${this.describe()} ${what}: ${detail}`, {
      cause: error,
      status,
      // Without an answer, only a lost or timed-out connection is worth another try.
      transient: status === undefined ? error instanceof APIConnectionError : undefined,
      retryAfterMs: retryAfterOf(headers),
    });
  }

  /** The request's timeout: the model's own, cut short by the caller's deadline. */
  private timeoutUntil(deadline: number | undefined): number | undefined {
    let left = deadline === undefined ? undefined : deadline - Date.now();
    const own = this.settings.timeoutMs;
    if (left === undefined) return own;
    left = Math.floor(left);
    return own === undefined ? left : Math.min(own, left);
  }

  private describe(): string {
    return `the LLM request to model ${this.settings.model} at ${hostOf(this.client.baseURL)}`;
  }

  // Some servers echo the key they rejected; it must not reach logs through our message.
  private redact(message: string): string {
    const key = this.settings.apiKey;
    return key.length >= 4 ? message.replaceAll(key, '[redacted]') : message;
  }
}

/** The wait a server asked for: `retry-after-ms`, or `Retry-After` in seconds or as a date. */
function retryAfterOf(headers: Headers | undefined): number | undefined {
  const ms = Number(headers?.get('retry-after-ms') ?? Number.NaN);
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers?.get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
