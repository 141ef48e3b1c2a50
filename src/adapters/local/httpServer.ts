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
   * Stops accepting connections, gives requests in progress up to `graceMs` to be answered, then
   * closes every connection.
   */
  close(graceMs?: number): Promise<void>;
}

/** Serves the HTTP API on `127.0.0.1:port` (0: any free port). */
export async function serveHttp(
  api: HttpApi,
  port: number,
  logger: ServerLogger,
): Promise<LocalHttpServer> {
  // Requests in progress, so that closing waits for them.
  const inFlight = new Set<Promise<void>>();
  const server = await listen(port, (req, res) => {
    const handled = answer(req, res, api, logger).finally(() => inFlight.delete(handled));
    inFlight.add(handled);
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    close: async (graceMs = 2000) => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, graceMs);
      });
      await Promise.race([Promise.allSettled([...inFlight]), grace]);
      clearTimeout(timer);
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
