import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A loopback HTTP proxy in front of an emulator that keeps every request and answer body. */
export interface RecordingProxy {
  /** `http://127.0.0.1:<port>`, for an SDK client's `endpoint`. */
  readonly endpoint: string;
  close(): Promise<void>;
}

/**
 * Forwards every request to `target` unchanged (the `Host` header too, so queue URLs an
 * emulator builds from it point back at the proxy) and passes each body, both ways, to `record`.
 */
export async function startRecordingProxy(
  target: string,
  record: (body: string) => void,
): Promise<RecordingProxy> {
  const upstream = new URL(target);
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    record(body.toString('utf8'));
    const forward = request(
      {
        hostname: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
      },
      async (answer) => {
        const parts: Buffer[] = [];
        for await (const part of answer) parts.push(part as Buffer);
        const text = Buffer.concat(parts);
        record(text.toString('utf8'));
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        res.end(text);
      },
    );
    forward.on('error', (error) => {
      if (!res.headersSent) res.writeHead(502);
      res.end(String(error));
    });
    forward.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
