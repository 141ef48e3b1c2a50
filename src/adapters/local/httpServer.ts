import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bodyTooLarge, type HttpApi, MAX_BODY_BYTES } from '../../runtime/index.js';

/** Logs what the server cannot answer otherwise. */
export interface ServerLogger {
  error(message: string, fields: Record<string, unknown>): void;
}

/** The HTTP API served by `node:http` on loopback. */
export interface LocalHttpServer {
  readonly url: string;
  /**
   * Stops accepting connections, and answers requests that still arrive on open ones with 503
   * and `Connection: close`; resolves once every request in progress is answered, or after
   * `graceMs`. Answers true when none was left.
   */
  drain(graceMs: number): Promise<boolean>;
  /** Closes every connection; requests still in progress lose theirs. */
  close(): Promise<void>;
}

/** Serves the HTTP API on `127.0.0.1:port` (0: any free port). */
export async function serveHttp(
  api: HttpApi,
  port: number,
  logger: ServerLogger,
): Promise<LocalHttpServer> {
  // Requests in progress, so that stopping waits for them.
  const inFlight = new Set<Promise<void>>();
  let draining = false;
  const server = await listen(port, (req, res) => {
    if (draining) {
      refuseWhileStopping(res);
      return;
    }
    const handled = answer(req, res, api, logger).finally(() => inFlight.delete(handled));
    inFlight.add(handled);
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const closed = new Promise<void>((resolve) => server.once('close', () => resolve()));
  return {
    url,
    drain: async (graceMs) => {
      draining = true;
      server.close();
      server.closeIdleConnections();
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), graceMs);
      });
      const answered = Promise.allSettled([...inFlight]).then(() => true as const);
      const result = await Promise.race([answered, grace]);
      clearTimeout(timer);
      return result;
    },
    close: async () => {
      draining = true;
      server.close();
      server.closeAllConnections();
      await closed;
    },
  };
}

async function answer(
  req: IncomingMessage,
  res: ServerResponse,
  api: HttpApi,
  logger: ServerLogger,
): Promise<void> {
  try {
    const body = await readBody(req, MAX_BODY_BYTES);
    const headers = Object.fromEntries(
      Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : v]),
    );
    const response =
      body === undefined
        ? { status: 413, body: { error: bodyTooLarge().message } }
        : await api.handle({ method: req.method ?? 'GET', path: req.url ?? '/', headers, body });
    res.writeHead(response.status, {
      ...('headers' in response ? response.headers : {}),
      'content-type': 'application/json',
    });
    res.end(JSON.stringify(response.body));
  } catch (error) {
    logger.error('request failed', {
      error: error instanceof Error ? error.message : String(error),
    });
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: 'internal error' }));
  }
}

function refuseWhileStopping(res: ServerResponse): void {
  res.writeHead(503, { 'content-type': 'application/json', connection: 'close' });
  res.end(JSON.stringify({ error: 'the server is stopping; try again shortly' }));
}

/** The body as text, or undefined when it is larger than `limit`. */
async function readBody(req: IncomingMessage, limit: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function listen(
  port: number,
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer(handler);
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}
