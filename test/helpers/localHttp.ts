import { randomUUID } from 'node:crypto';
import { type Agent, type IncomingHttpHeaders, request } from 'node:http';
import { DynamoConversationStore } from '../../src/adapters/aws/dynamoConversationStore.js';
import { DynamoReplyStore } from '../../src/adapters/aws/dynamoReplyStore.js';
import { SqsJobQueue } from '../../src/adapters/aws/sqsJobQueue.js';
import { type LocalHttpServer, serveHttp } from '../../src/adapters/local/httpServer.js';
import { standardChannels } from '../../src/channels/index.js';
import { createHttpRuntime, type HttpApi } from '../../src/runtime/index.js';
import type { Emulators } from './emulators.js';
import { SILENT_LOGGER } from './logger.js';

/** The HTTP side of a runtime on the emulators, served on loopback, with its log lines. */
export interface LocalHttp {
  readonly api: HttpApi;
  readonly server: LocalHttpServer;
  /** `level message` of every line the server logged. */
  readonly logs: string[];
  /** The fields of every line the server logged, as JSON. */
  readonly logFields: string[];
}

/** Serves the standard channels (webhooks answer at once) with the API token `token`. */
export async function serveLocalHttp(emulators: Emulators, token: string): Promise<LocalHttp> {
  const now = () => Date.now();
  const { documents, tableName, sqs, queues } = emulators;
  const table = { client: documents, tableName, ttlSeconds: 3600, now };
  const { http } = createHttpRuntime({
    store: new DynamoConversationStore(table),
    replies: new DynamoReplyStore(table),
    queue: new SqsJobQueue({
      client: sqs,
      jobsQueueUrl: queues.jobsQueueUrl,
      delayQueueUrl: queues.delayQueueUrl,
      now,
    }),
    channels: standardChannels,
    now,
    newId: randomUUID,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    http: { replyWaitMs: 0, authToken: async () => token },
  });
  const logs: string[] = [];
  const logFields: string[] = [];
  const log = (level: string) => (message: string, fields: Record<string, unknown>) => {
    logs.push(`${level} ${message}`);
    logFields.push(JSON.stringify(fields));
  };
  const server = await serveHttp(http, 0, {
    ...SILENT_LOGGER,
    error: log('error'),
    debug: log('debug'),
  });
  return { api: http, server, logs, logFields };
}

/** An answer as a raw HTTP client sees it. */
export interface RawAnswer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
}

/**
 * Sends one request with `node:http`, the path exactly as given, and a body with its length
 * (`node:http` would send a GET or DELETE body without one).
 */
export function sendRaw(
  url: string,
  options: {
    readonly method: string;
    readonly path: string;
    readonly headers?: Record<string, string>;
    readonly body?: Buffer | string;
    readonly agent?: Agent;
  },
): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  const length =
    options.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(options.body)) };
  return new Promise((resolve, reject) => {
    const req = request(
      {
        hostname,
        port,
        method: options.method,
        path: options.path,
        headers: { ...length, ...options.headers },
        ...(options.agent ? { agent: options.agent } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}
