import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Logger } from '@aws-lambda-powertools/logger';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoConversationStore } from '../adapters/aws/dynamoConversationStore.js';
import { DynamoReplyStore } from '../adapters/aws/dynamoReplyStore.js';
import { scanConversationIds } from '../adapters/aws/scanConversations.js';
import { DelayedJobForwarder, SqsJobQueue } from '../adapters/aws/sqsJobQueue.js';
import { SqsJobReceiver } from '../adapters/aws/sqsJobReceiver.js';
import { SqsJobSource } from '../adapters/aws/sqsJobSource.js';
import {
  ensureQueues,
  ensureTable,
  localAwsConfig,
  type RunningEmulator,
  startDynalite,
  startFauxqs,
} from '../adapters/local/emulators.js';
import { LocalSecretStore } from '../adapters/local/localSecretStore.js';
import type { Assistant } from '../assistant/index.js';
import { type HttpApiDeps, handleHttp } from '../channels/httpApi.js';
import { DialogueEngine, type LlmPort } from '../dialogue/index.js';
import { loadProjectActions } from '../extensions/index.js';
import { chatModelFor, DemoCommandModel, hasModelAccess } from '../llm/index.js';
import { UNAVAILABLE_TOOLS } from '../mcp/index.js';
import {
  ConcurrentUpdateError,
  type Job,
  processJob,
  type RuntimeDeps,
  runWorkerLoop,
  type WorkerLogger,
} from '../runtime/index.js';
import { recoverPendingWork } from './recover.js';

export const LOCAL_TABLE = 'switchboard';
const QUEUE_PREFIX = 'switchboard';
const TTL_SECONDS = 30 * 24 * 3600;
/** Worker loops on the job queue. */
const WORKER_LOOPS = 4;
/** How long jobs in progress may go on after a stop request. */
const STOP_GRACE_MS = 10_000;

export interface LocalStackOptions {
  readonly assistant: Assistant;
  readonly port: number;
  /** Keep conversations in this folder across restarts (in memory otherwise). */
  readonly dataDir?: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Overrides the model (tests pass a scripted one). */
  readonly llm?: LlmPort;
  /** How long the REST webhook waits for a turn to settle. */
  readonly replyWaitMs?: number;
  readonly announce: (line: string) => void;
}

export interface LocalStack {
  readonly url: string;
  readonly deps: RuntimeDeps;
  stop(): Promise<void>;
}

/**
 * The runtime on one machine: the same DynamoDB and SQS adapters as on AWS, against dynalite
 * and fauxqs in this process, a worker loop on the job queue, a loop that releases delayed jobs,
 * and the HTTP contract on loopback.
 */
export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const { assistant, env } = options;
  const logger = new Logger({
    serviceName: 'switchboard',
    logLevel: (env.SWITCHBOARD_LOG_LEVEL ?? 'WARN') as 'WARN',
  });
  const log = workerLogger(logger);
  const emulators: RunningEmulator[] = [];
  try {
    const dynamo = await startDynalite(
      options.dataDir ? { path: path.resolve(options.dataDir, 'dynamodb') } : {},
    );
    emulators.push(dynamo);
    const sqsEmulator = await startFauxqs();
    emulators.push(sqsEmulator);

    const dynamoClient = new DynamoDBClient(localAwsConfig(dynamo.endpoint));
    const documents = DynamoDBDocumentClient.from(dynamoClient, {
      marshallOptions: { removeUndefinedValues: true },
    });
    const sqs = new SQSClient(localAwsConfig(sqsEmulator.endpoint));
    await ensureTable(dynamoClient, LOCAL_TABLE);
    const queues = await ensureQueues(sqs, { prefix: QUEUE_PREFIX, visibilityTimeoutSeconds: 30 });

    const now = () => Date.now();
    const queueOptions = {
      client: sqs,
      jobsQueueUrl: queues.jobsQueueUrl,
      delayQueueUrl: queues.delayQueueUrl,
      now,
    };
    const secrets = new LocalSecretStore({
      file: path.join(assistant.projectDir, '.secrets.json'),
      env,
    });
    const llm = options.llm ?? (await chooseModel(assistant, env, secrets, options.announce));
    const store = new DynamoConversationStore({
      client: documents,
      tableName: LOCAL_TABLE,
      ttlSeconds: TTL_SECONDS,
      now,
    });
    const replies = new DynamoReplyStore({
      client: documents,
      tableName: LOCAL_TABLE,
      ttlSeconds: TTL_SECONDS,
      now,
    });
    const queue = new SqsJobQueue(queueOptions);
    const deps: RuntimeDeps = {
      engine: new DialogueEngine(assistant),
      store,
      queue,
      output: replies,
      runners: { runnerFor: () => undefined },
      ports: {
        llm,
        mcp: UNAVAILABLE_TOOLS,
        actions: await loadProjectActions(assistant),
        now,
        sleep: (ms, signal) => sleep(ms, undefined, signal ? { signal } : {}),
        random: Math.random,
      },
    };

    if (options.dataDir) {
      const resumed = await recoverPendingWork(
        deps,
        await scanConversationIds(documents, LOCAL_TABLE),
      );
      if (resumed > 0) options.announce(`resumed ${resumed} agent run(s) left by the previous run`);
    }

    const stopping = new AbortController();
    // Jobs in progress get a little time to finish when the stack stops, then are aborted.
    const jobsDeadline = new AbortController();
    const receiver = new SqsJobReceiver(sqs);
    // Several loops, as several Lambda workers would: the FIFO queue keeps each conversation serial.
    const jobs = Promise.all(
      Array.from({ length: WORKER_LOOPS }, () =>
        runWorkerLoop({
          source: new SqsJobSource(receiver, queues.jobsQueueUrl, log),
          process: (job: Job, signal) => processJob(job, deps, signal),
          isRetryable: (error) => error instanceof ConcurrentUpdateError,
          logger: log,
          signal: stopping.signal,
          jobSignal: jobsDeadline.signal,
        }),
      ),
    );
    const forwarder = new DelayedJobForwarder(queueOptions);
    const delayed = runWorkerLoop({
      source: new SqsJobSource(receiver, queues.delayQueueUrl, log),
      process: (job) => forwarder.forward(job),
      isRetryable: () => false,
      logger: log,
      signal: stopping.signal,
    });

    const serverStopping = new AbortController();
    const api: HttpApiDeps = {
      stopping: serverStopping.signal,
      queue,
      replies,
      store,
      newId: randomUUID,
      now,
      sleep: (ms) => sleep(ms),
      replyWaitMs: options.replyWaitMs ?? 10_000,
      ...(env.SWITCHBOARD_REST_TOKEN ? { authToken: env.SWITCHBOARD_REST_TOKEN } : {}),
    };
    // Requests in progress, so that stopping waits for them before it stops the worker loops.
    const inFlight = new Set<Promise<void>>();
    const server = await listen(options.port, (req, res) => {
      const handled = serve(req, res, api, logger).finally(() => inFlight.delete(handled));
      inFlight.add(handled);
    });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    return {
      url,
      deps,
      stop: async () => {
        // No new requests first, so no job is queued after the loops stop taking them.
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        stopping.abort();
        const deadline = setTimeout(
          () => jobsDeadline.abort(new Error('the stack is stopping')),
          STOP_GRACE_MS,
        );
        await Promise.allSettled([jobs, delayed]);
        clearTimeout(deadline);
        sqs.destroy();
        dynamoClient.destroy();
        await closeAll(emulators);
      },
    };
  } catch (error) {
    await closeAll(emulators);
    throw error;
  }
}

/** A real model when credentials or an `api_base` are configured, else the scripted demo model. */
async function chooseModel(
  assistant: Assistant,
  env: Readonly<Record<string, string | undefined>>,
  secrets: LocalSecretStore,
  announce: (line: string) => void,
): Promise<LlmPort> {
  const llm = assistant.commandGenerator.llm;
  if (hasModelAccess(llm, assistant, env)) {
    return chatModelFor(llm, assistant, { resolve: (ref) => secrets.get(ref.secret) }, env);
  }
  announce(
    'no OPENAI_API_KEY or model api_base: using the scripted demo model, which plays the demo conversation of the README',
  );
  return new DemoCommandModel();
}

/** Powertools' logger as the worker loop logs. */
function workerLogger(logger: Logger): WorkerLogger {
  const at =
    (level: 'info' | 'warn' | 'error') => (message: string, fields?: Record<string, unknown>) =>
      fields ? logger[level](message, fields) : logger[level](message);
  return { info: at('info'), warn: at('warn'), error: at('error') };
}

const MAX_BODY_BYTES = 256 * 1024;

async function serve(
  req: IncomingMessage,
  res: ServerResponse,
  api: HttpApiDeps,
  logger: Logger,
): Promise<void> {
  try {
    const body = await readBody(req, MAX_BODY_BYTES);
    const headers = Object.fromEntries(
      Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : v]),
    );
    const response =
      body === undefined
        ? { status: 413, body: { error: `the body is larger than ${MAX_BODY_BYTES} bytes` } }
        : await handleHttp(
            { method: req.method ?? 'GET', path: req.url ?? '/', headers, body },
            api,
          );
    res.writeHead(response.status, { 'content-type': 'application/json' });
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

async function closeAll(emulators: readonly RunningEmulator[]): Promise<void> {
  await Promise.allSettled([...emulators].reverse().map((e) => e.close()));
}
