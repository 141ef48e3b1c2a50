/** A receiver of push notifications on loopback: it records each, and can refuse the next ones. */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedPush {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Record<string, unknown>;
}

export interface PushReceiver {
  readonly url: string;
  readonly received: ReceivedPush[];
  /** Answers the next `count` notifications with `status` (they are recorded all the same). */
  refuseNext(count: number, status: number): void;
  /** Answers every notification from now on with this JSON body (`{}` at first). */
  answerWith(body: unknown): void;
  close(): Promise<void>;
}

export async function startPushReceiver(): Promise<PushReceiver> {
  const received: ReceivedPush[] = [];
  let refusals: { count: number; status: number } = { count: 0, status: 200 };
  let answer = '{}';
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({
        path: req.url ?? '/',
        headers: req.headers,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>,
      });
      const refused = refusals.count > 0;
      if (refused) refusals = { ...refusals, count: refusals.count - 1 };
      res.writeHead(refused ? refusals.status : 200, { 'content-type': 'application/json' });
      res.end(answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    refuseNext(count, status) {
      refusals = { count, status };
    },
    answerWith(body) {
      answer = JSON.stringify(body);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
