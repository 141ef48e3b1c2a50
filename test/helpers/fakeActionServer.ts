import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { Socket } from 'node:net';

/** One call the server received: what a Rasa action server's webhook reads. */
export interface ActionCall {
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  readonly headers: IncomingHttpHeaders;
  // biome-ignore lint/suspicious/noExplicitAny: the request is whatever the client sent; tests read into it.
  readonly body: any;
  /** `next_action` of the body. */
  readonly action: string;
}

/**
 * How the server answers a call: a status and JSON body (200 by default), a raw body, or
 * `hang` (never answer; the socket closes with the server) or `reset` (drop the connection).
 */
export type Reply =
  | {
      readonly status?: number;
      readonly body?: unknown;
      readonly raw?: string;
      readonly headers?: Readonly<Record<string, string>>;
    }
  | 'hang'
  | 'reset';

export type ActionHandler = (call: ActionCall) => Reply | Promise<Reply>;

/**
 * A Rasa action server of our own on loopback, answering as the Rasa SDK's webhook does: a
 * registered action's handler answers, an unknown action gets 404 `{error, action_name}`.
 * Scripted replies (`next`) come first, one per call. Every call is recorded.
 */
export class FakeActionServer {
  readonly calls: ActionCall[] = [];
  private readonly actions = new Map<string, ActionHandler>();
  private readonly scripted: Reply[] = [];
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  /** Starts on an ephemeral loopback port, or on `port` where a project names its server's. */
  static async start(actions: Readonly<Record<string, ActionHandler>> = {}, port = 0) {
    let self: FakeActionServer | undefined;
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        void (self as FakeActionServer).handle(
          request.url ?? '/',
          request.headers,
          Buffer.concat(chunks).toString('utf8'),
          (reply) => {
            if (reply === 'hang') return;
            if (reply === 'reset') {
              request.socket.destroy();
              return;
            }
            const body = reply.raw ?? JSON.stringify(reply.body ?? null);
            response.writeHead(reply.status ?? 200, {
              'content-type': 'application/json',
              ...reply.headers,
            });
            response.end(body);
          },
        );
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', resolve);
    });
    const address = server.address() as { port: number };
    self = new FakeActionServer(server, `http://127.0.0.1:${address.port}/webhook`);
    const sockets = self.sockets;
    server.on('connection', (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    for (const [name, handler] of Object.entries(actions)) self.action(name, handler);
    return self;
  }

  /** Registers (or replaces) an action. */
  action(name: string, handler: ActionHandler): void {
    this.actions.set(name, handler);
  }

  /** Replies for the next calls, whatever they ask, in order. */
  next(...replies: Reply[]): void {
    this.scripted.push(...replies);
  }

  /** The calls of one action. */
  callsOf(action: string): ActionCall[] {
    return this.calls.filter((call) => call.action === action);
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(
    url: string,
    headers: IncomingHttpHeaders,
    text: string,
    send: (reply: Reply) => void,
  ): Promise<void> {
    const parsed = new URL(url, 'http://127.0.0.1');
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    const action = String((body as { next_action?: unknown } | undefined)?.next_action ?? '');
    const call: ActionCall = {
      path: parsed.pathname,
      query: Object.fromEntries(parsed.searchParams),
      headers,
      body,
      action,
    };
    this.calls.push(call);
    const scripted = this.scripted.shift();
    if (scripted !== undefined) return send(scripted);
    const handler = this.actions.get(action);
    if (!handler) {
      return send({
        status: 404,
        body: { error: `No registered action found for name '${action}'.`, action_name: action },
      });
    }
    try {
      send(await handler(call));
    } catch (error) {
      send({ status: 500, body: { error: String(error), request_body: body } });
    }
  }
}

/** A 200 answer with events and responses, as the SDK sends it. */
export function answer(events: unknown[] = [], responses: unknown[] = []): Reply {
  return { body: { events, responses } };
}

/**
 * A message as the SDK's `dispatcher.utter_message(...)` writes it: every key present, empty
 * ones as None, [] or {}, and keyword arguments alongside.
 */
export function utterMessage(fields: {
  text?: string;
  response?: string;
  buttons?: { title: string; payload: string }[];
  image?: string;
  json_message?: Record<string, unknown>;
  attachment?: string;
  [variable: string]: unknown;
}): Record<string, unknown> {
  const { text, response, buttons, image, json_message, attachment, ...kwargs } = fields;
  return {
    text: text ?? null,
    buttons: buttons ?? [],
    elements: [],
    custom: json_message ?? {},
    template: response ?? null,
    response: response ?? null,
    image: image ?? null,
    attachment: attachment ?? null,
    ...kwargs,
  };
}

/** An address on loopback where nothing listens: connections are refused. */
export async function refusedUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/webhook`;
}
