/**
 * A messaging platform's API on loopback (Slack, Telegram, Twilio, a callback URL): it records
 * every request and answers as a test scripts it, so that channels are tested against HTTP.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PlatformRequest {
  readonly method: string;
  /** The path with its query. */
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
  /** The body as JSON, or as form fields when it was form-encoded; undefined for neither. */
  readonly body: unknown;
}

export interface PlatformAnswer {
  readonly status?: number;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface FakePlatform {
  readonly url: string;
  readonly requests: PlatformRequest[];
  /** Answers every request from now on with what `answer` gives (200 `{"ok": true}` at first). */
  answer(answer: (request: PlatformRequest) => PlatformAnswer): void;
  /** Answers the next `count` requests with `failure` (they are recorded all the same). */
  failNext(count: number, failure: PlatformAnswer): void;
  close(): Promise<void>;
}

export async function startFakePlatform(): Promise<FakePlatform> {
  const requests: PlatformRequest[] = [];
  let answer: (request: PlatformRequest) => PlatformAnswer = () => ({ body: { ok: true } });
  let failures: { count: number; failure: PlatformAnswer } = { count: 0, failure: {} };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const type = req.headers['content-type'] ?? '';
      let body: unknown;
      if (type.startsWith('application/json')) body = JSON.parse(text);
      else if (type.startsWith('application/x-www-form-urlencoded')) {
        body = Object.fromEntries(new URLSearchParams(text));
      }
      const request = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: req.headers,
        text,
        body,
      };
      requests.push(request);
      let given: PlatformAnswer;
      if (failures.count > 0) {
        failures = { ...failures, count: failures.count - 1 };
        given = failures.failure;
      } else {
        given = answer(request);
      }
      res.writeHead(given.status ?? 200, {
        'content-type': 'application/json',
        ...(given.headers ?? {}),
      });
      res.end(JSON.stringify(given.body ?? {}));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    answer(next) {
      answer = next;
    },
    failNext(count, failure) {
      failures = { count, failure };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
