import * as z from 'zod';
import type { ChatMessage, LlmPort } from '../dialogue/ports.js';
import {
  isTransientStatus,
  parseRetryAfter,
  redact,
  timedSignal,
  WireError,
  type WireErrorOptions,
} from '../resilience/index.js';
import type {
  TokenUsage,
  ToolCall,
  ToolChatMessage,
  ToolChatPort,
  ToolChatRequest,
  ToolChatResponse,
} from './toolChat.js';
import { type ChatAnswer, ChatHttpError, postChatCompletion } from './wire.js';

/** OpenAI's public API, where a model without an `api_base` is asked. */
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
  /** Further request body fields, such as `top_p` or `reasoning_effort`. */
  readonly extra?: Readonly<Record<string, unknown>>;
}

/**
 * A chat-completions request failed: HTTP error, connection error, timeout or odd response.
 * Code `LLM_REQUEST_FAILED`, transient after a timeout, a lost connection, 408, 409, 429 or 5xx.
 */
export class LlmRequestError extends WireError {
  override readonly name = 'LlmRequestError';
  override readonly code = 'LLM_REQUEST_FAILED';
  /** `transient` defaults to what the status says; `retryAfterMs` is the server's `Retry-After`. */
  constructor(message: string, options: WireErrorOptions = {}) {
    super(message, {
      ...options,
      transient: options.transient ?? isTransientAnswer(options.status),
    });
  }
}

/** No status (no answer: timeout, connection) or one that a later try may not get. */
function isTransientAnswer(status: number | undefined): boolean {
  return status === undefined || status === 409 || isTransientStatus(status);
}

// Only what we use; OpenAI-compatible servers differ in everything else.
const WireToolCall = z.object({
  id: z.string().nullish(),
  function: z.object({ name: z.string().nullish(), arguments: z.string().nullish() }).nullish(),
});
const WireUsage = z
  .object({ prompt_tokens: z.number().nullish(), completion_tokens: z.number().nullish() })
  .nullish();
const CompletionResponse = z.object({
  choices: z
    .array(
      z.object({
        message: z
          .object({ content: z.string().nullish(), tool_calls: z.array(WireToolCall).nullish() })
          .nullish(),
      }),
    )
    .nullish(),
  usage: WireUsage,
});
const CompletionChunk = z.object({
  choices: z
    .array(
      z.object({
        delta: z
          .object({
            content: z.string().nullish(),
            tool_calls: z
              .array(WireToolCall.extend({ index: z.number().int().min(0).max(127).nullish() }))
              .nullish(),
          })
          .nullish(),
      }),
    )
    .nullish(),
  usage: WireUsage,
});

/**
 * An `LlmPort` and a `ToolChatPort` over any OpenAI-compatible chat-completions endpoint: text
 * completions for the command generator, tool calling (streamed or not) for the agents.
 */
export class OpenAiChatModel implements LlmPort, ToolChatPort {
  private readonly settings: OpenAiChatSettings;
  private readonly baseURL: string;

  constructor(settings: OpenAiChatSettings) {
    this.settings = settings;
    this.baseURL = settings.baseURL ?? OPENAI_DEFAULT_BASE_URL;
  }

  async complete(request: {
    readonly messages: readonly ChatMessage[];
    readonly signal?: AbortSignal;
    readonly deadline?: number;
  }): Promise<{ readonly content: string }> {
    const body = {
      messages: request.messages.map(({ role, content }) => ({ role, content })),
      stream: false,
    };
    const parsed = this.parse(CompletionResponse, await this.sendForJson(body, request));
    return { content: parsed.choices?.[0]?.message?.content ?? '' };
  }

  async chat(request: ToolChatRequest): Promise<ToolChatResponse> {
    const tools = request.tools && request.tools.length > 0 ? request.tools : undefined;
    const body = {
      messages: request.messages.map(wireMessage),
      ...(tools ? { tools } : {}),
      ...(tools && request.toolChoice ? { tool_choice: request.toolChoice } : {}),
    };
    if (!request.onTextDelta) {
      const parsed = this.parse(
        CompletionResponse,
        await this.sendForJson({ ...body, stream: false }, request),
      );
      const message = parsed.choices?.[0]?.message;
      return answerOf(message?.content ?? '', toolCallsOf(message?.tool_calls ?? []), parsed.usage);
    }
    const onTextDelta = request.onTextDelta;
    // The request's timer runs until the stream ends; whether the caller aborted is checked first.
    const answer = await this.send(
      { ...body, stream: true, stream_options: { include_usage: true } },
      request,
    );
    const stopped = () => {
      if (request.signal?.aborted) throw request.signal.reason;
      if (answer.timedOut()) {
        throw new LlmRequestError(`${this.describe()} timed out while streaming its answer`, {
          transient: true,
        });
      }
    };
    let content = '';
    const calls: { id?: string; name?: string; arguments: string }[] = [];
    let usage: z.infer<typeof WireUsage>;
    try {
      for await (const raw of answer.events()) {
        const chunk = this.parse(CompletionChunk, raw);
        usage = chunk.usage ?? usage;
        const delta = chunk.choices?.[0]?.delta;
        if (delta?.content) {
          content += delta.content;
          onTextDelta(delta.content);
        }
        for (const part of delta?.tool_calls ?? []) {
          const call = callFor(calls, part.index, part.id);
          if (part.id) call.id = part.id;
          if (part.function?.name) call.name = (call.name ?? '') + part.function.name;
          call.arguments += part.function?.arguments ?? '';
        }
      }
    } catch (error) {
      stopped();
      if (error instanceof LlmRequestError) throw error;
      // A stream that broke off (a dropped connection, an error event) may work on another try.
      const detail = this.redact(error instanceof Error ? error.message : String(error));
      throw new LlmRequestError(`${this.describe()} failed while streaming: ${detail}`, {
        cause: error,
        transient: true,
      });
    } finally {
      answer.dispose();
    }
    stopped();
    return answerOf(
      content,
      toolCallsOf(calls.filter((c) => c !== undefined).map(wireCall)),
      usage,
    );
  }

  /**
   * Sends one request within the caller's deadline and signal; errors become `LlmRequestError`.
   * The request's timer runs until the answer is disposed of: it covers reading the answer too,
   * and `timedOut` tells whether it ran out.
   */
  private async send(
    body: Record<string, unknown>,
    request: { readonly signal?: AbortSignal; readonly deadline?: number },
  ): Promise<ChatAnswer & { timedOut(): boolean; dispose(): void }> {
    const { model, maxTokens, temperature, extra } = this.settings;
    const timeout = this.timeoutUntil(request.deadline);
    if (timeout !== undefined && timeout <= 0) {
      throw new LlmRequestError(`${this.describe()} timed out: no time was left for it`, {
        transient: true,
      });
    }
    const timer = timeout === undefined ? undefined : timedSignal(timeout, request.signal);
    const signal = timer?.signal ?? request.signal;
    try {
      const answer = await postChatCompletion({
        baseURL: this.baseURL,
        apiKey: this.settings.apiKey,
        body: {
          ...extra,
          model,
          ...(maxTokens !== undefined ? { max_tokens: maxTokens } : {}),
          ...(temperature !== undefined ? { temperature } : {}),
          ...body,
        },
        ...(signal ? { signal } : {}),
      });
      return {
        ...answer,
        timedOut: () => timer?.signal.aborted === true,
        dispose: () => timer?.dispose(),
      };
    } catch (error) {
      timer?.dispose();
      // Like fetch: an aborted call rejects with the signal's reason (a timeout's, a shutdown's).
      if (request.signal?.aborted) throw request.signal.reason;
      throw this.requestError(error, timer?.signal.aborted === true);
    }
  }

  /** Sends a request whose answer is one JSON body, and reads that body within the same timer. */
  private async sendForJson(
    body: Record<string, unknown>,
    request: { readonly signal?: AbortSignal; readonly deadline?: number },
  ): Promise<unknown> {
    const answer = await this.send(body, request);
    try {
      return await answer.json();
    } catch (error) {
      if (request.signal?.aborted) throw request.signal.reason;
      if (error instanceof SyntaxError) {
        throw new LlmRequestError(`${this.describe()} answered with an unexpected response body`, {
          cause: error,
          transient: false,
        });
      }
      throw this.requestError(error, answer.timedOut());
    } finally {
      answer.dispose();
    }
  }

  private parse<T>(schema: z.ZodType<T>, response: unknown): T {
    const parsed = schema.safeParse(response);
    if (parsed.success) return parsed.data;
    throw new LlmRequestError(`${this.describe()} answered with an unexpected response body`, {
      cause: parsed.error,
      transient: false,
    });
  }

  private requestError(error: unknown, timedOut: boolean): LlmRequestError {
    if (error instanceof ChatHttpError) {
      return new LlmRequestError(
        `${this.describe()} failed with HTTP ${error.status}: ${this.redact(error.message)}`,
        { cause: error, status: error.status, retryAfterMs: parseRetryAfter(error.headers) },
      );
    }
    if (timedOut) {
      return new LlmRequestError(`${this.describe()} timed out: Request timed out.`, {
        cause: error,
        transient: true,
      });
    }
    // fetch rejects a URL it cannot parse with a TypeError whose cause says so; no try mends it.
    const invalidUrl = error instanceof TypeError && /invalid url/i.test(error.message);
    const detail = invalidUrl ? 'Invalid URL' : 'Connection error.';
    return new LlmRequestError(`${this.describe()} failed: ${detail}`, {
      cause: error,
      // Without an answer, only a lost or refused connection is worth another try.
      transient: !invalidUrl,
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
    return `the LLM request to model ${this.settings.model} at ${hostOf(this.baseURL)}`;
  }

  // Some servers echo the key they rejected; it must not reach logs through our message.
  private redact(message: string): string {
    return redact(message, [this.settings.apiKey]);
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** Our message as the wire wants it. */
function wireMessage(message: ToolChatMessage): Record<string, unknown> {
  switch (message.role) {
    case 'system':
    case 'user':
      return { role: message.role, content: message.content };
    case 'assistant':
      return {
        role: 'assistant',
        content: message.content,
        ...(message.toolCalls && message.toolCalls.length > 0
          ? {
              tool_calls: message.toolCalls.map((call) => ({
                id: call.id,
                type: 'function',
                function: { name: call.name, arguments: call.arguments },
              })),
            }
          : {}),
      };
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
  }
}

function wireCall(call: { id?: string; name?: string; arguments: string }) {
  return { id: call.id, function: { name: call.name, arguments: call.arguments } };
}

/**
 * The call a streamed fragment belongs to: by its index; without one, a new call when it brings
 * a new id, else the last call.
 */
function callFor(
  calls: { id?: string; name?: string; arguments: string }[],
  index: number | null | undefined,
  id: string | null | undefined,
): { id?: string; name?: string; arguments: string } {
  const last = calls.at(-1);
  const at =
    index ??
    (last === undefined || (id && last.id && last.id !== id) ? calls.length : calls.length - 1);
  const call = calls[at] ?? { arguments: '' };
  calls[at] = call;
  return call;
}

/**
 * Tool calls of an answer; a call without an id gets '' (the caller names it uniquely), a call
 * without a name is kept nameless.
 */
function toolCallsOf(calls: readonly z.infer<typeof WireToolCall>[]): ToolCall[] {
  return calls.map((call) => ({
    id: call.id ?? '',
    name: call.function?.name ?? '',
    arguments: call.function?.arguments ?? '',
  }));
}

function answerOf(
  content: string,
  toolCalls: ToolCall[],
  usage: z.infer<typeof WireUsage>,
): ToolChatResponse {
  const tokens: TokenUsage | undefined =
    usage?.prompt_tokens != null || usage?.completion_tokens != null
      ? { promptTokens: usage.prompt_tokens ?? 0, completionTokens: usage.completion_tokens ?? 0 }
      : undefined;
  return { content, toolCalls, ...(tokens ? { usage: tokens } : {}) };
}
