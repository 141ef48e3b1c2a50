import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteMessageCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import type {
  APIGatewayProxyEvent,
  APIGatewayProxyEventV2,
  Context,
  SQSBatchResponse,
  SQSEvent,
  SQSRecord,
} from 'aws-lambda';
import { vi } from 'vitest';
import { messageBody } from '../../../src/adapters/aws/sqsSend.js';
import {
  ensureQueues,
  ensureTable,
  type LocalQueues,
  localAwsConfig,
  startDynalite,
  startFauxqs,
} from '../../../src/adapters/local/emulators.js';
import { generateAssistantBundle } from '../../../src/build/index.js';
import { Job } from '../../../src/runtime/index.js';
import { tempDir } from '../../helpers/tempDirs.js';

// The worker imports its project through the build's esbuild alias; in tests, the bundle the
// harness generated for it.
const bundle = vi.hoisted(() => ({ registryFile: '', a2aServerFile: '' }));
vi.mock('@switchboard/bundle', () => import(/* @vite-ignore */ bundle.registryFile));
vi.mock('@switchboard/a2a-server', () => import(/* @vite-ignore */ bundle.a2aServerFile));

/** The secret prefix the functions run with in these tests. */
export const SECRET_PREFIX = 'test/';

/** A function that SQS feeds: the worker or the delay function. */
export type QueueHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse>;

/** The worker function as deployed: its handler, and the folder of the bundle it imports. */
export interface DeployedWorker {
  readonly handler: QueueHandler;
  readonly bundleDir: string;
}

/** dynalite and fauxqs, and the environment the handler modules read when first imported. */
export interface FunctionsHarness {
  readonly tableName: string;
  readonly queues: LocalQueues;
  readonly sqs: SQSClient;
  readonly documents: DynamoDBDocumentClient;
  /** Every item of the table. */
  scanTable(): Promise<Record<string, unknown>[]>;
  /**
   * The jobs waiting in a queue now, with their message group. It does not wait for more: what
   * a handler queued is there once it has returned, and an empty queue answers at once.
   */
  receiveJobs(queueUrl: string): Promise<{ job: Job; groupId?: string }[]>;
  /**
   * The worker function deployed with the project in `projectDir`: its bundle generated as the
   * build does, then the handler imported (once per test file, as a container starts once).
   */
  worker(projectDir: string): Promise<DeployedWorker>;
  /**
   * The bundle of the project in `projectDir`, generated as the build does, for the functions that
   * import it; a test file deploys one project, whichever functions it imports.
   */
  deploy(projectDir: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * Starts the emulators, creates the table and queues, and sets the function environment with
 * the SDK's own endpoint variables, so the handlers' module-scope clients reach the emulators.
 * Import the handler modules after this.
 */
export async function startFunctionsHarness(
  env: Readonly<Record<string, string>> = {},
): Promise<FunctionsHarness> {
  const [dynalite, fauxqs] = await Promise.all([startDynalite(), startFauxqs()]);
  const dynamo = new DynamoDBClient(localAwsConfig(dynalite.endpoint));
  const documents = DynamoDBDocumentClient.from(dynamo);
  const sqs = new SQSClient(localAwsConfig(fauxqs.endpoint));
  const prefix = `f${randomUUID().slice(0, 8)}`;
  const tableName = `${prefix}-conversations`;
  await ensureTable(dynamo, tableName);
  const queues = await ensureQueues(sqs, { prefix, visibilityTimeoutSeconds: 30 });
  let deployed: { projectDir: string; bundleDir: string } | undefined;
  Object.assign(process.env, {
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_ENDPOINT_URL_DYNAMODB: dynalite.endpoint,
    AWS_ENDPOINT_URL_SQS: fauxqs.endpoint,
    TABLE_NAME: tableName,
    JOBS_QUEUE_URL: queues.jobsQueueUrl,
    DELAY_QUEUE_URL: queues.delayQueueUrl,
    SECRET_PREFIX,
    CONVERSATION_TTL_DAYS: '1',
    POWERTOOLS_LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'SILENT',
    POWERTOOLS_METRICS_DISABLED: 'true',
    POWERTOOLS_TRACE_ENABLED: 'false',
    ...env,
  });
  const harness: FunctionsHarness = {
    tableName,
    queues,
    sqs,
    documents,
    async scanTable() {
      const { Items } = await documents.send(new ScanCommand({ TableName: tableName }));
      return Items ?? [];
    },
    async receiveJobs(queueUrl) {
      const { Messages } = await sqs.send(
        new ReceiveMessageCommand({
          QueueUrl: queueUrl,
          MaxNumberOfMessages: 10,
          WaitTimeSeconds: 0,
          MessageSystemAttributeNames: ['MessageGroupId'],
        }),
      );
      return (Messages ?? []).map((message) => ({
        job: Job.parse(JSON.parse(message.Body ?? '')),
        ...(message.Attributes?.MessageGroupId
          ? { groupId: message.Attributes.MessageGroupId }
          : {}),
      }));
    },
    async worker(projectDir) {
      const bundleDir = await harness.deploy(projectDir);
      const { handler } = await import('../../../functions/worker.js');
      return { handler, bundleDir };
    },
    async deploy(projectDir) {
      // The handler modules, imported once, keep the first bundle they read.
      if (deployed && deployed.projectDir !== projectDir) {
        throw new Error('a test file deploys one project');
      }
      if (!deployed) {
        const bundleDir = await tempDir('switchboard-bundle-');
        const generated = await generateAssistantBundle(projectDir, undefined, bundleDir);
        bundle.registryFile = generated.registryFile;
        bundle.a2aServerFile = generated.a2aServerFile;
        deployed = { projectDir, bundleDir };
      }
      return deployed.bundleDir;
    },
    async close() {
      dynamo.destroy();
      sqs.destroy();
      await Promise.all([dynalite.close(), fauxqs.close()]);
    },
  };
  return harness;
}

/** A Lambda context with a minute left. */
export function lambdaContext(functionName: string): Context {
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:us-east-1:123456789012:function:${functionName}`,
    memoryLimitInMB: '1024',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'test',
    getRemainingTimeInMillis: () => 60_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/** An SQS event as Lambda delivers it; FIFO records carry their conversation as message group. */
export function sqsEvent(bodies: readonly (Job | string)[], options: { fifo: boolean }): SQSEvent {
  return {
    Records: bodies.map((body, i): SQSRecord => {
      const job = typeof body === 'string' ? undefined : body;
      return {
        messageId: `msg-${i}-${randomUUID()}`,
        receiptHandle: `handle-${i}`,
        body: job ? messageBody(job) : String(body),
        attributes: {
          ApproximateReceiveCount: '1',
          SentTimestamp: String(Date.now()),
          SenderId: 'test',
          ApproximateFirstReceiveTimestamp: String(Date.now()),
          ...(options.fifo
            ? {
                MessageGroupId: job?.conversation_id ?? 'poison',
                MessageDeduplicationId: job?.id ?? `poison-${i}`,
                SequenceNumber: String(i + 1),
              }
            : {}),
        },
        messageAttributes: {},
        md5OfBody: '',
        eventSource: 'aws:sqs',
        eventSourceARN: `arn:aws:sqs:us-east-1:123456789012:queue${options.fifo ? '.fifo' : ''}`,
        awsRegion: 'us-east-1',
      };
    }),
  };
}

/** An API Gateway HTTP API (payload 2.0) request; a query in `path` goes to `rawQueryString`. */
export function httpEvent(
  method: string,
  path: string,
  options: { body?: string; headers?: Record<string, string> } = {},
): APIGatewayProxyEventV2 {
  const [rawPath = path, rawQueryString = ''] = path.split('?');
  return {
    version: '2.0',
    routeKey: `${method} ${rawPath}`,
    rawPath,
    rawQueryString,
    headers: { 'content-type': 'application/json', ...options.headers },
    isBase64Encoded: false,
    ...(options.body === undefined ? {} : { body: options.body }),
    requestContext: {
      accountId: '123456789012',
      apiId: 'api',
      domainName: 'api.example.com',
      domainPrefix: 'api',
      http: {
        method,
        path: rawPath,
        protocol: 'HTTP/1.1',
        sourceIp: '127.0.0.1',
        userAgent: 'test',
      },
      requestId: randomUUID(),
      routeKey: `${method} ${rawPath}`,
      stage: '$default',
      time: new Date().toISOString(),
      timeEpoch: Date.now(),
    },
  };
}

/** An API Gateway REST API (payload 1.0) request on the stage `stream`. */
export function restEvent(
  method: string,
  path: string,
  options: { body?: string; headers?: Record<string, string> } = {},
): APIGatewayProxyEvent {
  const headers = {
    host: 'a2a.example.com',
    'content-type': 'application/json',
    ...options.headers,
  };
  return {
    httpMethod: method,
    path,
    resource: path,
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]])),
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: null,
    stageVariables: null,
    body: options.body ?? null,
    isBase64Encoded: false,
    requestContext: {
      accountId: '123456789012',
      apiId: 'api',
      authorizer: undefined,
      domainName: 'a2a.example.com',
      httpMethod: method,
      identity: { sourceIp: '127.0.0.1' } as APIGatewayProxyEvent['requestContext']['identity'],
      path: `/stream${path}`,
      protocol: 'HTTP/1.1',
      requestId: randomUUID(),
      requestTimeEpoch: Date.now(),
      resourceId: 'resource',
      resourcePath: path,
      stage: 'stream',
    },
  };
}

/** A response stream as Lambda gives a streaming handler: what it writes, and its status line. */
export class ResponseStream extends Writable {
  readonly chunks: string[] = [];
  metadata: { statusCode?: number; headers?: Record<string, string> } = {};
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.chunks.push(chunk.toString('utf8'));
    done();
  }
  get text(): string {
    return this.chunks.join('');
  }
}

/** A handler behind a REST API route with response streaming. */
export type StreamingHandler = (
  event: APIGatewayProxyEvent,
  stream: ResponseStream,
  context: Context,
) => Promise<void>;

/** What the Lambda runtime gives a streaming function (`awslambda`), for the test's process. */
export function provideStreamingRuntime(): void {
  Object.assign(globalThis, {
    awslambda: {
      streamifyResponse: <T>(handler: T) => handler,
      HttpResponseStream: {
        from: (stream: ResponseStream, metadata: ResponseStream['metadata']) => {
          stream.metadata = metadata;
          return stream;
        },
      },
    },
  });
}

/**
 * Runs the jobs queued now on the worker and removes them from the queue, as SQS would; returns
 * how many there were.
 */
export async function runQueuedJobs(
  harness: FunctionsHarness,
  worker: QueueHandler,
): Promise<number> {
  const QueueUrl = harness.queues.jobsQueueUrl;
  const { Messages = [] } = await harness.sqs.send(
    new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }),
  );
  const jobs = Messages.map((m) => Job.parse(JSON.parse(m.Body ?? '')));
  if (jobs.length > 0) await worker(sqsEvent(jobs, { fifo: true }), lambdaContext('worker'));
  for (const { ReceiptHandle } of Messages) {
    await harness.sqs.send(new DeleteMessageCommand({ QueueUrl, ReceiptHandle }));
  }
  return jobs.length;
}
