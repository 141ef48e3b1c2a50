/**
 * The server half of `npm run bench a2a`: one inbound A2A exchange (a blocking `SendMessage`
 * from the SDK's client, answered once the turn is over) against the SDK's own in-memory server
 * (`DefaultRequestHandler`, an executor that answers at once) and against Switchboard's A2A
 * server (the message a job, a worker running the turn, the task folded in DynamoDB, the request
 * reading it), both in this process on dynalite and fauxqs. Exchanges alternate a new task
 * (`/greet`: input required) and its answer (`/SetSlots`: completed), and the two servers take
 * turns. Counted for Switchboard: DynamoDB requests per exchange, by the server's side (the A2A
 * function on AWS) and the worker's, by operation.
 */
import { randomUUID } from 'node:crypto';
import { Message, type Task, TaskState } from '@a2a-js/sdk';
import { ClientFactory } from '@a2a-js/sdk/client';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { cardSource } from '../src/a2aServer/index.js';
import { DynamoConversationStore } from '../src/adapters/aws/dynamoConversationStore.js';
import { DynamoReplyStore } from '../src/adapters/aws/dynamoReplyStore.js';
import { DynamoTaskStore } from '../src/adapters/aws/dynamoTaskStore.js';
import { SqsJobQueue } from '../src/adapters/aws/sqsJobQueue.js';
import { SqsJobReceiver } from '../src/adapters/aws/sqsJobReceiver.js';
import { SqsJobSource } from '../src/adapters/aws/sqsJobSource.js';
import {
  ensureQueues,
  ensureTable,
  localAwsConfig,
  startDynalite,
  startFauxqs,
} from '../src/adapters/local/emulators.js';
import { serveHttp } from '../src/adapters/local/httpServer.js';
import type { Assistant } from '../src/assistant/index.js';
import { a2aServerChannel } from '../src/channels/index.js';
import { startA2AHost } from '../src/demo/a2aHost.js';
import { taskEvents } from '../src/demo/a2aTask.js';
import { NO_ACTIONS } from '../src/dialogue/index.js';
import type { Logger } from '../src/resilience/index.js';
import {
  createHttpRuntime,
  createRuntime,
  NO_RUNNERS,
  runWorkerLoop,
} from '../src/runtime/index.js';
import { benchProject, mark, round, type Sample, since, summary } from './harness.js';

const EXCHANGES = 200;
const WARMUP = 20;
const QUIET: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/** DynamoDB requests by operation, counted on a client's middleware stack. */
function countRequests(client: DynamoDBClient): Map<string, number> {
  const counts = new Map<string, number>();
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const name = context.commandName ?? 'unknown';
      counts.set(name, (counts.get(name) ?? 0) + 1);
      return next(args);
    },
    { step: 'initialize', name: 'countRequests' },
  );
  return counts;
}

function benchAssistant() {
  return benchProject('a2a-server', {
    'config.yml': 'pipeline:\n  - name: CompactLLMCommandGenerator\n',
    'endpoints.yml': 'a2a_server:\n  description: Greets people.\n',
    'domain.yml':
      'intents:\n  - greet\nslots:\n  name:\n    type: text\nresponses:\n  utter_ask_name:\n    - text: What is your name?\n  utter_hello:\n    - text: Hello, {name}!\n',
    'data/flows.yml':
      'flows:\n  greet:\n    description: Greet.\n    nlu_trigger:\n      - intent: greet\n    steps:\n      - collect: name\n      - action: utter_hello\n',
  });
}

/** Switchboard's A2A server and a worker, as on AWS: two runtimes, each with its own client. */
async function switchboardServer(assistant: Assistant) {
  const settings = assistant.a2aServer;
  if (!settings) throw new Error('the benchmark project has no a2a_server');
  const [dynalite, fauxqs] = await Promise.all([startDynalite(), startFauxqs()]);
  const sqs = new SQSClient(localAwsConfig(fauxqs.endpoint));
  const setup = new DynamoDBClient(localAwsConfig(dynalite.endpoint));
  await ensureTable(setup, 'bench');
  const queues = await ensureQueues(sqs, { prefix: 'a2abench', visibilityTimeoutSeconds: 60 });
  const now = () => Date.now();
  const side = () => {
    const client = new DynamoDBClient(localAwsConfig(dynalite.endpoint));
    const counts = countRequests(client);
    const documents = DynamoDBDocumentClient.from(client, {
      marshallOptions: { removeUndefinedValues: true },
    });
    const table = { client: documents, tableName: 'bench', ttlSeconds: 3600, now };
    const parts = {
      store: new DynamoConversationStore(table),
      replies: new DynamoReplyStore(table),
      queue: new SqsJobQueue({ client: sqs, ...queues, now }),
      now,
      newId: randomUUID,
      sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
      http: { replyWaitMs: 10_000 },
      channels: (context: Parameters<typeof a2aServerChannel>[0]) => [
        a2aServerChannel(context, {
          settings,
          card: cardSource(settings, assistant),
          tasks: new DynamoTaskStore(table),
          secrets: { get: async () => '' },
          pushKey: async () => 'bench-push-key',
          baseUrl: () => url,
        }),
      ],
    };
    return { counts, client, parts };
  };
  let url = '';
  const server = side();
  const worker = side();
  const { http } = createHttpRuntime(server.parts);
  const runtime = createRuntime({
    ...worker.parts,
    dialogue: {
      assistant,
      models: () => ({ complete: async () => ({ content: '' }) }),
      actions: NO_ACTIONS,
      mcp: { callTool: async () => ({ isError: true }) },
      runners: NO_RUNNERS,
      random: () => 0,
      logger: QUIET,
    },
  });
  const stop = new AbortController();
  const loop = runWorkerLoop({
    source: new SqsJobSource(new SqsJobReceiver(sqs), queues.jobsQueueUrl, QUIET, 1),
    process: (job, signal, deadline) => runtime.processJob(job, signal, { deadline }),
    isRetryable: () => false,
    logger: QUIET,
    signal: stop.signal,
  });
  const listening = await serveHttp(http, 0, QUIET);
  url = listening.url;
  return {
    url,
    counts: { server: server.counts, worker: worker.counts },
    async close() {
      stop.abort();
      await loop;
      await listening.close();
      for (const c of [server.client, worker.client, setup]) c.destroy();
      sqs.destroy();
      await Promise.all([dynalite.close(), fauxqs.close()]);
    },
  };
}

/** The SDK's in-memory server with an executor that answers each turn at once. */
function sdkServer() {
  return startA2AHost({
    name: 'bench agent',
    description: 'Greets people.',
    versions: '1.0',
    streaming: false,
    pushNotifications: false,
    executor: {
      async execute(ctx, bus) {
        const task = taskEvents(bus, ctx);
        task.open();
        if (ctx.task) task.status(TaskState.TASK_STATE_COMPLETED, 'Hello, Ada!');
        else task.status(TaskState.TASK_STATE_INPUT_REQUIRED, 'What is your name?');
        bus.finished();
      },
      async cancelTask(_taskId, bus) {
        bus.finished();
      },
    },
  });
}

type Exchange = (i: number) => Promise<Sample>;

/** Exchanges with a server: even ones start a task, odd ones answer it. */
async function exchanges(baseUrl: string): Promise<Exchange> {
  const client = await new ClientFactory().createFromUrl(baseUrl);
  let task: Task | undefined;
  return async (i) => {
    const answer = i % 2 === 1 && task;
    const text = answer ? '/SetSlots(name=Ada)' : '/greet';
    const start = mark();
    const result = await client.sendMessage({
      tenant: '',
      message: Message.fromJSON({
        messageId: randomUUID(),
        role: 'ROLE_USER',
        parts: [{ text }],
        ...(answer ? { taskId: answer.id, contextId: answer.contextId } : {}),
      }),
      configuration: undefined,
      metadata: undefined,
    });
    const sample = since(start);
    if (!('status' in result)) throw new Error('expected a task');
    const expected = answer ? TaskState.TASK_STATE_COMPLETED : TaskState.TASK_STATE_INPUT_REQUIRED;
    if (result.status?.state !== expected) {
      throw new Error(`exchange ${i} ended ${TaskState[result.status?.state ?? 0]}`);
    }
    task = result;
    return sample;
  };
}

export async function a2aServerBenchmark(): Promise<Record<string, unknown>> {
  const { assistant } = await benchAssistant();
  const sdk = await sdkServer();
  const ours = await switchboardServer(assistant);
  try {
    const runs = [await exchanges(sdk.url), await exchanges(ours.url)];
    const samples: Sample[][] = [[], []];
    let counted: Record<string, Record<string, number>> = {};
    for (let i = 0; i < WARMUP + EXCHANGES; i++) {
      if (i === WARMUP) {
        for (const c of Object.values(ours.counts)) c.clear();
      }
      for (const [k, run] of runs.entries()) {
        const sample = await run(i);
        if (i >= WARMUP) samples[k]?.push(sample);
      }
    }
    counted = Object.fromEntries(
      Object.entries(ours.counts).map(([side, counts]) => [
        side,
        Object.fromEntries([...counts].map(([op, n]) => [op, round(n / EXCHANGES, 2)])),
      ]),
    );
    const sdkTimes = summary(samples[0] ?? []);
    const ourTimes = summary(samples[1] ?? []);
    const total = (side: Record<string, number>) =>
      round(
        Object.values(side).reduce((a, b) => a + b, 0),
        2,
      );
    return {
      sdkInMemory: sdkTimes,
      switchboard: ourTimes,
      addedMedianMs: round(ourTimes.wallMedianMs - sdkTimes.wallMedianMs),
      addedP95Ms: round(ourTimes.wallP95Ms - sdkTimes.wallP95Ms),
      dynamoRequestsPerExchange: {
        server: counted.server,
        worker: counted.worker,
        total: total(counted.server ?? {}) + total(counted.worker ?? {}),
      },
    };
  } finally {
    await ours.close();
    await sdk.close();
  }
}
