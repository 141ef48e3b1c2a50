import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/** A tool call the scripted model makes; `arguments` objects are sent as JSON text. */
export interface ScriptedToolCall {
  readonly name: string;
  readonly arguments: string | Readonly<Record<string, unknown>>;
  readonly id?: string;
}

/**
 * One scripted answer: a string is a text reply; `{ text?, toolCalls? }` an assistant message;
 * `{ status }` an HTTP error; `{ body }` a JSON body sent as it is, and `{ events }` a stream of
 * events whose data are sent as they are (then `[DONE]`, or with `cut` a dropped connection), for
 * what other OpenAI-compatible servers send. `delayMs` holds the answer back (for abort and
 * timeout tests).
 */
export type ScriptedReply =
  | string
  | {
      readonly text?: string;
      readonly toolCalls?: readonly ScriptedToolCall[];
      readonly delayMs?: number;
      /** In a stream: waits this long after the first piece of text before the rest. */
      readonly stallMs?: number;
    }
  | { readonly status: number; readonly message?: string; readonly delayMs?: number }
  | { readonly body: unknown; readonly delayMs?: number }
  | { readonly events: readonly unknown[]; readonly cut?: boolean; readonly delayMs?: number };

/** A request the server received, as sent. */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: unknown;
}

const COMPLETIONS_PATH = '/v1/chat/completions';

/**
 * An OpenAI-compatible chat-completions server on loopback that answers from a queue of scripted
 * replies (JSON, or SSE when the request asks to stream). It records every request; a request it
 * has no reply for is answered with 500 and recorded in `errors`, which `verify()` reports.
 */
export class ScriptedOpenAi {
  readonly requests: RecordedRequest[] = [];
  readonly errors: string[] = [];
  /** Requests whose client went away before the answer was sent. */
  aborted = 0;
  private readonly replies: ScriptedReply[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private nextId = 0;

  private constructor(
    private readonly server: Server,
    /** The base URL to give the SDK (`…/v1`). */
    readonly url: string,
  ) {}

  static async start(replies: readonly ScriptedReply[] = []): Promise<ScriptedOpenAi> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const scripted = new ScriptedOpenAi(server, `http://127.0.0.1:${port}/v1`);
    scripted.reply(...replies);
    server.on('request', (req, res) => void scripted.handle(req, res));
    return scripted;
  }

  reply(...replies: ScriptedReply[]): void {
    this.replies.push(...replies);
  }

  get remaining(): number {
    return this.replies.length;
  }

  /** Throws when a request was unexpected or a scripted reply was never asked for. */
  verify(): void {
    const problems = [...this.errors];
    if (this.replies.length > 0) problems.push(`${this.replies.length} scripted replies unused`);
    if (problems.length > 0) throw new Error(`scripted OpenAI server: ${problems.join('; ')}`);
  }

  async close(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const text = await readBody(req);
    const path = req.url ?? '';
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Recorded as text; the reply below reports it.
    }
    this.requests.push({ method: req.method ?? '', path, headers: req.headers, body });
    const number = this.requests.length;
    const reply =
      req.method === 'POST' && path === COMPLETIONS_PATH ? this.replies.shift() : undefined;
    if (reply === undefined || typeof body !== 'object' || body === null) {
      const error = `unexpected request #${number}: ${req.method} ${path}`;
      this.errors.push(error);
      sendJson(res, 500, { error: { message: error, type: 'scripted_error', code: null } });
      return;
    }
    const stream = 'stream' in body && body.stream === true;
    const includeUsage =
      'stream_options' in body &&
      (body.stream_options as { include_usage?: unknown } | null)?.include_usage === true;
    let answered = false;
    res.on('close', () => {
      if (!answered) this.aborted += 1;
    });
    const answer = () => {
      answered = true;
      if (!res.destroyed) this.send(res, reply, stream, includeUsage);
    };
    const delayMs = typeof reply === 'string' ? 0 : (reply.delayMs ?? 0);
    if (delayMs === 0) return answer();
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      answer();
    }, delayMs);
    this.timers.add(timer);
  }

  private send(
    res: ServerResponse,
    reply: ScriptedReply,
    stream: boolean,
    includeUsage: boolean,
  ): void {
    if (typeof reply !== 'string' && 'status' in reply) {
      const message = reply.message ?? `scripted HTTP ${reply.status}`;
      sendJson(res, reply.status, { error: { message, type: 'scripted_error', code: null } });
      return;
    }
    if (typeof reply !== 'string' && 'body' in reply) {
      sendJson(res, 200, reply.body);
      return;
    }
    if (typeof reply !== 'string' && 'events' in reply) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const events = reply.events.map((data) => `data: ${JSON.stringify(data)}\n\n`).join('');
      if (reply.cut) res.write(events, () => res.destroy());
      else res.end(`${events}data: [DONE]\n\n`);
      return;
    }
    const text = typeof reply === 'string' ? reply : reply.text;
    const toolCalls = (typeof reply === 'string' ? [] : (reply.toolCalls ?? [])).map((call, i) => ({
      id: call.id ?? `call_${this.nextId + 1}_${i}`,
      name: call.name,
      arguments:
        typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
    }));
    const id = `chatcmpl-scripted-${++this.nextId}`;
    const finishReason = toolCalls.length > 0 ? 'tool_calls' : 'stop';
    if (stream) {
      const stallMs = typeof reply === 'string' ? 0 : (reply.stallMs ?? 0);
      const later = (fn: () => void) => {
        const timer = setTimeout(() => {
          this.timers.delete(timer);
          if (!res.destroyed) fn();
        }, stallMs);
        this.timers.add(timer);
      };
      sendStream(
        res,
        id,
        text,
        toolCalls,
        finishReason,
        includeUsage,
        stallMs > 0 ? later : undefined,
      );
      return;
    }
    sendJson(res, 200, {
      id,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: 'scripted',
      choices: [
        {
          index: 0,
          finish_reason: finishReason,
          logprobs: null,
          message: {
            role: 'assistant',
            content: text ?? null,
            refusal: null,
            ...(toolCalls.length > 0
              ? {
                  tool_calls: toolCalls.map((c) => ({
                    id: c.id,
                    type: 'function',
                    function: { name: c.name, arguments: c.arguments },
                  })),
                }
              : {}),
          },
        },
      ],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    });
  }
}

interface WireToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
}

/**
 * Streams text in two pieces and each tool call's arguments in two fragments, as OpenAI does,
 * then (when asked for) a last chunk with the usage and no choices.
 */
function sendStream(
  res: ServerResponse,
  id: string,
  text: string | undefined,
  toolCalls: readonly WireToolCall[],
  finishReason: string,
  includeUsage: boolean,
  /** Given: runs the rest of the stream later, after the first piece of text. */
  stall?: (rest: () => void) => void,
): void {
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta: object, finish: string | null = null) =>
    `data: ${JSON.stringify({
      id,
      object: 'chat.completion.chunk',
      created,
      model: 'scripted',
      choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
    })}\n\n`;
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.write(chunk({ role: 'assistant', content: '' }));
  const [head, tail] = halves(text ?? '');
  if (head) res.write(chunk({ content: head }));
  const rest = () => {
    if (tail) res.write(chunk({ content: tail }));
    finish();
  };
  if (stall) stall(rest);
  else rest();

  function finish() {
    toolCalls.forEach((call, index) => {
      const [first, second] = halves(call.arguments);
      res.write(
        chunk({
          tool_calls: [
            {
              index,
              id: call.id,
              type: 'function',
              function: { name: call.name, arguments: first },
            },
          ],
        }),
      );
      if (second) res.write(chunk({ tool_calls: [{ index, function: { arguments: second } }] }));
    });
    res.write(chunk({}, finishReason));
    if (includeUsage) {
      const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };
      res.write(
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: 'scripted', choices: [], usage })}\n\n`,
      );
    }
    res.end('data: [DONE]\n\n');
  }
}

function halves(text: string): [string, string] {
  const middle = Math.ceil(text.length / 2);
  return [text.slice(0, middle), text.slice(middle)];
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
