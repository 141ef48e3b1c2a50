/**
 * One chat-completions request over `fetch`: the JSON body out, and the answer as one JSON body
 * or as server-sent events. Written here rather than taken from OpenAI's SDK: Switchboard sends
 * this one request, never retries inside it (the runtime retries a failed step as a job) and
 * checks every answer against its own schemas, while the SDK weighs about 150 KB in each bundle
 * of the worker and costs time on every call. The events are parsed by `eventsource-parser`.
 */
import { EventSourceParserStream } from 'eventsource-parser/stream';
import { WireError } from '../resilience/index.js';

/**
 * The server answered with an error status. The message is worded as OpenAI's SDK words it,
 * the status and then the error's own message, since servers put the reason there.
 * Code `LLM_HTTP_STATUS`; `LlmRequestError` wraps it, saying whether to try again.
 */
export class ChatHttpError extends WireError {
  override readonly name = 'ChatHttpError';
  override readonly code = 'LLM_HTTP_STATUS';
  readonly headers: Headers;
  constructor(status: number, message: string, headers: Headers) {
    super(message, { status });
    this.headers = headers;
  }
}

/**
 * A stream sent an error in place of a chunk, with the server's message.
 * Code `LLM_STREAM_ERROR`; `LlmRequestError` wraps it.
 */
export class ChatStreamError extends WireError {
  override readonly name = 'ChatStreamError';
  override readonly code = 'LLM_STREAM_ERROR';
}

/** An answer with a success status, whose body is read once: as JSON or as events. */
export interface ChatAnswer {
  json(): Promise<unknown>;
  /** The data of each event, parsed, until `[DONE]` or the end of the body. */
  events(): AsyncIterable<unknown>;
}

export interface ChatRequest {
  readonly baseURL: string;
  readonly apiKey: string;
  readonly body: Readonly<Record<string, unknown>>;
  readonly signal?: AbortSignal;
}

/**
 * Posts to `<baseURL>/chat/completions`. Rejects with a TypeError for a base that is no URL or
 * a connection that fails, with the signal's reason when it fires, and with `ChatHttpError`
 * for an answer that is not 2xx.
 */
export async function postChatCompletion(request: ChatRequest): Promise<ChatAnswer> {
  const url = new URL(`${request.baseURL.replace(/\/+$/, '')}/chat/completions`);
  // `localhost:8000/v1` parses, as a URL of the scheme `localhost:`.
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError('Invalid URL');
  const streamed = request.body.stream === true;
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${request.apiKey}`,
      'Content-Type': 'application/json',
      Accept: streamed ? 'text/event-stream' : 'application/json',
    },
    body: JSON.stringify(request.body),
    ...(request.signal ? { signal: request.signal } : {}),
  });
  if (!response.ok) {
    throw new ChatHttpError(
      response.status,
      httpErrorMessage(response.status, await response.text().catch(() => '')),
      response.headers,
    );
  }
  return {
    json: async () => JSON.parse(await response.text()) as unknown,
    events: () => eventsOf(response),
  };
}

/** `401 Incorrect API key`: the status and the message of the body's `error`, as OpenAI sends it. */
function httpErrorMessage(status: number, text: string): string {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return text.trim() === '' ? `${status} status code (no body)` : `${status} ${text.trim()}`;
  }
  const reason = messageOf(errorOf(body)) ?? messageOf(body);
  return reason === undefined ? `${status} ${text.trim()}` : `${status} ${reason}`;
}

function errorOf(body: unknown): unknown {
  return body !== null && typeof body === 'object'
    ? (body as { error?: unknown }).error
    : undefined;
}

function messageOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (value === null || typeof value !== 'object') return undefined;
  const message = (value as { message?: unknown }).message;
  if (typeof message === 'string') return message;
  return message === undefined ? undefined : JSON.stringify(message);
}

async function* eventsOf(response: Response): AsyncGenerator<unknown> {
  if (!response.body) return;
  const reader = response.body
    .pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream())
    .getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      if (value.data.startsWith('[DONE]')) return;
      const data: unknown = JSON.parse(value.data);
      const error = errorOf(data);
      if (value.event === 'error' || error !== undefined) {
        throw new ChatStreamError(messageOf(error) ?? messageOf(data) ?? value.data);
      }
      yield data;
    }
  } finally {
    // An answer left half read would hold its connection open.
    await reader.cancel().catch(() => undefined);
  }
}
