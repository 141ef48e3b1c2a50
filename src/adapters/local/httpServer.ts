import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Logger, SwitchboardError, within } from '../../resilience/index.js';
import { bodyTooLarge, type HttpApi, MAX_BODY_BYTES } from '../../runtime/index.js';

/** The HTTP API served by `node:http` on loopback. */
export interface LocalHttpServer {
  readonly url: string;
  /** The node server, for protocols that share its port (socket.io). */
  readonly server: Server;
  /**
   * Stops accepting connections, and answers requests that still arrive on open ones with 503
   * and `Connection: close`; resolves once every request in progress is answered, or after
   * `graceMs`. Answers true when none was left.
   */
  drain(graceMs: number): Promise<boolean>;
  /** Closes every connection; requests still in progress lose theirs. */
  close(): Promise<void>;
}

/**
 * Serves the HTTP API on `127.0.0.1:port` (0: any free port), logging what it cannot answer
 * otherwise (errors) and clients that left (debug).
 */
export async function serveHttp(
  api: HttpApi,
  port: number,
  logger: Logger,
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
    server,
    drain: async (graceMs) => {
      draining = true;
      server.close();
      server.closeIdleConnections();
      const answered = Promise.allSettled([...inFlight]).then(() => true);
      // Only the grace period ends the wait with a rejection: then some are still in progress.
      return within(answered, { deadline: Date.now() + graceMs }).catch(() => false);
    },
    close: async () => {
      draining = true;
      server.close();
      server.closeAllConnections();
      await closed;
    },
  };
}

/** How much of a body the server reads past an early answer, so the connection closes cleanly. */
const DRAIN_BYTES = 8 * 1024 * 1024;
const DRAIN_MS = 5000;

/** The client closed its connection before its request was read or answered. Code `CLIENT_GONE`. */
class ClientGoneError extends SwitchboardError {
  override readonly name = 'ClientGoneError';
  override readonly code = 'CLIENT_GONE';
  constructor(options?: { cause?: unknown }) {
    super('the client closed the connection', options);
  }
}

async function answer(
  req: IncomingMessage,
  res: ServerResponse,
  api: HttpApi,
  logger: Logger,
): Promise<void> {
  try {
    const headers = Object.fromEntries(
      Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : v]),
    );
    // Route and token are decided from the request line and headers; the body is read after.
    const response = await api.handle({
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      headers,
      body: () => readBody(req, MAX_BODY_BYTES),
    });
    // Answered before the whole body arrived (refused early): read the rest, then close, so
    // that the client sees the answer and its next request goes on a fresh connection.
    const early = !req.complete;
    if (early && !(await drain(req))) {
      if (req.destroyed) throw new ClientGoneError();
    }
    if (response.stream) {
      await sendStream(req, res, response.status, response.headers ?? {}, response.stream);
      return;
    }
    res.writeHead(response.status, {
      ...response.headers,
      'content-type': 'application/json',
      ...(early ? { connection: 'close' } : {}),
    });
    res.end(response.body === undefined ? undefined : JSON.stringify(response.body));
  } catch (error) {
    if (error instanceof ClientGoneError || (req.destroyed && !req.complete)) {
      // The path without its query, which may carry the API token (`?token=`).
      const path = (req.url ?? '/').split('?')[0];
      logger.debug('client disconnected', { method: req.method, path });
      return;
    }
    logger.error('request failed', {
      error: error instanceof Error ? error.message : String(error),
    });
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: 'internal error' }));
  }
}

/**
 * Writes a streamed answer a chunk at a time; a client that leaves ends the stream (its iterator
 * is returned, so that whatever feeds it stops).
 */
async function sendStream(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  headers: Readonly<Record<string, string>>,
  stream: AsyncIterable<string>,
): Promise<void> {
  res.writeHead(status, { 'content-type': 'text/event-stream', ...headers });
  res.flushHeaders();
  const iterator = stream[Symbol.asyncIterator]();
  const gone = () => void iterator.return?.();
  res.once('close', gone);
  try {
    for (;;) {
      const next = await iterator.next();
      if (next.done || res.destroyed) break;
      res.write(next.value);
    }
  } finally {
    res.off('close', gone);
    if (!res.writableEnded) res.end();
    if (req.destroyed) await iterator.return?.();
  }
}

function refuseWhileStopping(res: ServerResponse): void {
  res.writeHead(503, { 'content-type': 'application/json', connection: 'close' });
  res.end(JSON.stringify({ error: 'the server is stopping; try again shortly' }));
}

/**
 * The body as text; refused with 413 as soon as it (or its declared length) passes `limit`,
 * leaving the rest unread.
 */
function readBody(req: IncomingMessage, limit: number): Promise<string> {
  if (Number(req.headers['content-length']) > limit) return Promise.reject(bodyTooLarge());
  if (req.readableEnded) return Promise.resolve('');
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (outcome: () => void) => {
      req.off('data', onData).off('end', onEnd).off('error', onGone).off('close', onGone);
      outcome();
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else
        settle(() => {
          req.pause();
          reject(bodyTooLarge());
        });
    };
    const onEnd = () => settle(() => resolve(Buffer.concat(chunks).toString('utf8')));
    const onGone = (cause?: unknown) => settle(() => reject(new ClientGoneError({ cause })));
    req.on('data', onData).once('end', onEnd).once('error', onGone).once('close', onGone);
  });
}

/** Reads and discards the rest of a body, up to a bound; whether it all arrived. */
function drain(req: IncomingMessage): Promise<boolean> {
  return new Promise((resolve) => {
    let size = 0;
    const settle = (complete: boolean) => {
      clearTimeout(timer);
      req.off('data', onData).off('end', onEnd).off('error', onGone).off('close', onGone);
      resolve(complete);
    };
    const timer = setTimeout(() => settle(false), DRAIN_MS);
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > DRAIN_BYTES) settle(false);
    };
    const onEnd = () => settle(true);
    const onGone = () => settle(false);
    req.on('data', onData).once('end', onEnd).once('error', onGone).once('close', onGone);
    req.resume();
  });
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
