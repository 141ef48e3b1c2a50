import { randomUUID } from 'node:crypto';
import { DeleteMessageCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll } from 'vitest';
import { DynamoConversationStore } from '../../src/adapters/aws/dynamoConversationStore.js';
import { DynamoReplyStore } from '../../src/adapters/aws/dynamoReplyStore.js';
import { SqsJobQueue } from '../../src/adapters/aws/sqsJobQueue.js';
import { SqsJobReceiver } from '../../src/adapters/aws/sqsJobReceiver.js';
import { SqsJobSource } from '../../src/adapters/aws/sqsJobSource.js';
import type { StoreMeter } from '../../src/adapters/aws/storeMeter.js';
import { ensureQueues } from '../../src/adapters/local/emulators.js';
import type { Assistant, LlmConfig } from '../../src/assistant/index.js';
import { standardChannels } from '../../src/channels/index.js';
import {
  type ActionPort,
  type LlmPort,
  type McpToolPort,
  NO_ACTIONS,
} from '../../src/dialogue/index.js';
import {
  type AgentRunners,
  type AgentRunRecord,
  type ChannelFactory,
  ConcurrentUpdateError,
  type ConversationHead,
  type ConversationStore,
  createRuntime,
  type HttpApi,
  type Job,
  NO_RUNNERS,
  processJob,
  type RuntimeDeps,
  runWorkerLoop,
  type StepReport,
} from '../../src/runtime/index.js';
import { assistantFrom, ScriptedLlm, ScriptedTools } from './dialogue.js';
import { type Emulators, startEmulators } from './emulators.js';
import { SILENT_LOGGER } from './logger.js';
import type { ProjectFilesSpec } from './project.js';
import { waitFor } from './waitFor.js';

export interface TestRuntime {
  readonly deps: RuntimeDeps;
  /** The HTTP API (webhooks wait at most `replyWaitMs`, 0 by default). */
  readonly http: HttpApi;
  readonly jobsQueueUrl: string;
  readonly delayQueueUrl: string;
  readonly store: DynamoConversationStore;
  readonly replies: DynamoReplyStore;
  readonly queue: SqsJobQueue;
  readonly llm: ScriptedLlm;
  readonly logs: string[];
  /** The agent steps the runtime's journal was told of, in order. */
  readonly steps: StepReport[];
  /** Runs worker loops until `done` holds (or a timeout); delayed jobs are released at once. */
  drain(done: () => Promise<boolean>, timeoutMs?: number): Promise<void>;
  /** Every item in the table, as JSON text. */
  scanTable(): Promise<string>;
  /**
   * Takes the next agent step queued for a conversation off a queue (the jobs or the delay queue
   * by default), dropping the other jobs received with it. A step taken from the delay queue
   * keeps its `not_before`; processing it directly runs it at once.
   */
  takeStep(conversationId: string, queueUrl?: string): Promise<Job>;
  /**
   * The jobs queued for a conversation now, on the jobs queue or `queueUrl` (one receive that does
   * not wait; they stay queued).
   */
  queuedJobs(conversationId: string, queueUrl?: string): Promise<Job[]>;
  /** As `takeStep`, for the next job of a type (an agent update, a cancel). */
  takeJob(conversationId: string, type: Job['type'], queueUrl?: string): Promise<Job>;
}

/** The runtime on the emulators, with its own queues, a scripted model and recorded logs. */
export async function testRuntime(
  emulators: Emulators,
  assistant: Assistant,
  options: {
    runners?: AgentRunners;
    meter?: StoreMeter;
    llm?: ScriptedLlm;
    random?: () => number;
    replyWaitMs?: number;
    /** The clock (real time by default). */
    now?: () => number;
    /** The command generator's model (the scripted `llm` by default). */
    model?: LlmPort;
    /** The model of every `llm` block (instead of `model` or the scripted `llm` for all). */
    models?: (llm: LlmConfig | undefined) => LlmPort;
    /** Each job's budget when drained by worker loops. */
    jobBudgetMs?: number;
    /** The MCP tools flows call (scripted by default). */
    mcp?: McpToolPort;
    /** The custom actions (none by default). */
    actions?: ActionPort;
    /** The channels (the standard ones by default). */
    channels?: ChannelFactory;
    /** Told of each committed step besides `steps` (which always gets it first). */
    journal?: (report: StepReport) => void;
  } = {},
): Promise<TestRuntime> {
  const now = options.now ?? (() => Date.now());
  const { documents, tableName, sqs } = emulators;
  // Each runtime gets fresh queues: jobs another test left behind must not reach it.
  const queues = await ensureQueues(sqs, {
    prefix: `rt${randomUUID().slice(0, 8)}`,
    visibilityTimeoutSeconds: 1,
  });
  const store = new DynamoConversationStore({
    client: documents,
    tableName,
    ttlSeconds: 3600,
    now,
    ...(options.meter ? { meter: options.meter } : {}),
  });
  const replies = new DynamoReplyStore({ client: documents, tableName, ttlSeconds: 3600, now });
  const queue = new SqsJobQueue({
    client: sqs,
    jobsQueueUrl: queues.jobsQueueUrl,
    delayQueueUrl: queues.delayQueueUrl,
    now,
  });
  const llm = options.llm ?? new ScriptedLlm();
  const logs: string[] = [];
  const steps: StepReport[] = [];
  const logger = {
    ...SILENT_LOGGER,
    info: (m: string, f?: Record<string, unknown>) =>
      logs.push(`info ${m} ${JSON.stringify(f ?? {})}`),
    warn: (m: string, f?: Record<string, unknown>) =>
      logs.push(`warn ${m} ${JSON.stringify(f ?? {})}`),
    error: (m: string, f?: Record<string, unknown>) =>
      logs.push(`error ${m} ${JSON.stringify(f ?? {})}`),
  };
  const runtime = createRuntime({
    store,
    queue,
    replies,
    channels: options.channels ?? standardChannels,
    now,
    newId: randomUUID,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    http: { replyWaitMs: options.replyWaitMs ?? 0 },
    dialogue: {
      assistant,
      models: options.models ?? (() => options.model ?? llm),
      actions: options.actions ?? NO_ACTIONS,
      mcp: options.mcp ?? new ScriptedTools(),
      runners: options.runners ?? NO_RUNNERS,
      random: options.random ?? (() => 0),
      logger,
      journal: (report) => {
        steps.push(report);
        options.journal?.(report);
      },
    },
  });
  const { deps } = runtime;
  const receiver = new SqsJobReceiver(sqs);
  const takeJob = (conversationId: string, type: Job['type'], queueUrl?: string): Promise<Job> => {
    // A step delayed by a few milliseconds may be on either queue, by when its commit ran.
    const urls = queueUrl ? [queueUrl] : [queues.jobsQueueUrl, queues.delayQueueUrl];
    return waitFor(
      async () => {
        for (const url of urls) {
          const received = await sqs.send(
            // No long poll: an empty jobs queue would hold up the look at the delay queue.
            new ReceiveMessageCommand({
              QueueUrl: url,
              MaxNumberOfMessages: 10,
              WaitTimeSeconds: 0,
            }),
          );
          for (const m of received.Messages ?? []) {
            await sqs.send(
              new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: m.ReceiptHandle }),
            );
          }
          const step = (received.Messages ?? [])
            .map((m) => JSON.parse(m.Body ?? '{}') as Job)
            .find((j) => j.conversation_id === conversationId && j.type === type);
          if (step) return step;
        }
        return undefined;
      },
      { description: `a job of type ${type} queued for ${conversationId}` },
    );
  };
  return {
    deps,
    http: runtime.http,
    jobsQueueUrl: queues.jobsQueueUrl,
    delayQueueUrl: queues.delayQueueUrl,
    store,
    replies,
    queue,
    llm,
    logs,
    steps,
    async drain(done, timeoutMs = 20_000) {
      const stop = new AbortController();
      const loops = [
        runWorkerLoop({
          source: new SqsJobSource(receiver, queues.jobsQueueUrl, logger, 1),
          process: (job: Job, signal, deadline) => processJob(job, deps, signal, { deadline }),
          ...(options.jobBudgetMs !== undefined ? { jobBudgetMs: options.jobBudgetMs } : {}),
          isRetryable: (e) => e instanceof ConcurrentUpdateError,
          logger,
          signal: stop.signal,
        }),
        runWorkerLoop({
          source: new SqsJobSource(receiver, queues.delayQueueUrl, logger, 1),
          process: (job: Job) => queue.enqueue([{ ...job, not_before: undefined }]),
          isRetryable: () => false,
          logger,
          signal: stop.signal,
        }),
      ];
      const deadline = Date.now() + timeoutMs;
      try {
        while (!(await done())) {
          if (Date.now() > deadline) throw new Error(`drain timed out; logs:\n${logs.join('\n')}`);
          await new Promise((r) => setTimeout(r, 50));
        }
      } finally {
        stop.abort();
        await Promise.all(loops);
      }
    },
    async scanTable() {
      const out = await documents.send(new ScanCommand({ TableName: tableName }));
      return JSON.stringify(out.Items ?? []);
    },
    async queuedJobs(conversationId, queueUrl = queues.jobsQueueUrl) {
      const received = await sqs.send(
        new ReceiveMessageCommand({
          QueueUrl: queueUrl,
          MaxNumberOfMessages: 10,
          WaitTimeSeconds: 0,
          VisibilityTimeout: 0,
        }),
      );
      return (received.Messages ?? [])
        .map((m) => JSON.parse(m.Body ?? '{}') as Job)
        .filter((j) => j.conversation_id === conversationId);
    },
    takeStep(conversationId, queueUrl) {
      return takeJob(conversationId, 'agent_step', queueUrl);
    },
    takeJob,
  };
}

let jobCount = 0;

/** A REST user message job with a unique id. */
export function userMessage(
  conversation: string,
  text: string,
): Extract<Job, { type: 'user_message' }> {
  jobCount += 1;
  const id = `m${jobCount}-${conversation}`;
  return {
    type: 'user_message',
    id,
    conversation_id: conversation,
    turn_id: id,
    text,
    channel: 'rest',
  };
}

/** A signal that never aborts, for jobs run directly in tests. */
export const NEVER = new AbortController().signal;

/** Emulators and an assistant shared by the tests of one file, and runtimes on them. */
export interface RuntimeSuite {
  readonly emulators: Emulators;
  readonly assistant: Assistant;
  runtime(options?: Parameters<typeof testRuntime>[2]): Promise<TestRuntime>;
}

/**
 * Starts the emulators and loads the project written from `files` before the file's tests, and
 * stops them after (registers `beforeAll` and `afterAll`, so hooks registered earlier run first).
 */
export function runtimeSuite(files: ProjectFilesSpec | (() => ProjectFilesSpec)): RuntimeSuite {
  let emulators: Emulators | undefined;
  let assistant: Assistant | undefined;
  beforeAll(async () => {
    emulators = await startEmulators({ visibilityTimeoutSeconds: 1 });
    // A function gives files that depend on what earlier hooks started (a server's URL).
    assistant = await assistantFrom(typeof files === 'function' ? files() : files);
  }, 30_000);
  afterAll(async () => {
    await emulators?.close();
  });
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the suite is used before its beforeAll ran');
    return value;
  };
  return {
    get emulators() {
      return ready(emulators);
    },
    get assistant() {
      return ready(assistant);
    },
    runtime: (options = {}) => testRuntime(ready(emulators), ready(assistant), options),
  };
}

/** `store` with some of its methods replaced (a failing or forgetful store). */
export function storeWith(
  store: ConversationStore,
  overrides: Partial<ConversationStore>,
): ConversationStore {
  return new Proxy(store, {
    get: (target, key, receiver) =>
      key in overrides
        ? overrides[key as keyof ConversationStore]
        : Reflect.get(target, key, receiver),
  });
}

/**
 * Commits a head derived from the conversation's current one by `change`, with `records`
 * (for tests that need a state no job would write).
 */
export async function rewriteHead(
  store: ConversationStore,
  conversationId: string,
  change: (head: ConversationHead) => Partial<ConversationHead>,
  records: AgentRunRecord[] = [],
): Promise<void> {
  const head = await store.load(conversationId);
  if (!head) throw new Error(`no conversation ${conversationId}`);
  await store.commit({
    conversationId,
    expectedVersion: head.version,
    head: { ...head, outbox: undefined, ...change(head), version: head.version + 1 },
    runs: records,
  });
}

/** The reasons the conversation's internal-error patterns were started with, from its stack events. */
export async function internalErrorReasons(
  rt: TestRuntime,
  conversation: string,
): Promise<unknown[]> {
  const reasons = new Set<unknown>();
  for (const { event } of await rt.store.readEvents(conversation)) {
    if (event.event !== 'stack') continue;
    for (const frame of event.stack)
      if (frame.flow_id === 'pattern_internal_error' && 'data' in frame)
        reasons.add((frame.data as { reason?: unknown }).reason);
  }
  return [...reasons];
}

/** A message the REST webhook answers with. */
export interface RestMessage {
  readonly recipient_id: string;
  readonly text?: string;
}

/**
 * Posts a message to the REST webhook, runs the worker until the webhook answers, and returns
 * the messages it answered with.
 */
export async function webhookMessages(
  rt: TestRuntime,
  sender: string,
  message: string,
): Promise<RestMessage[]> {
  let answered = false;
  const reply = rt.http
    .handle({
      method: 'POST',
      path: '/webhooks/rest/webhook',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sender, message }),
    })
    .finally(() => {
      answered = true;
    });
  await rt.drain(async () => answered);
  const response = await reply;
  if (response.status !== 200) throw new Error(`the webhook answered ${response.status}`);
  return response.body as RestMessage[];
}

/** As `webhookMessages`, the texts only. */
export async function sayThroughWebhook(
  rt: TestRuntime,
  sender: string,
  message: string,
): Promise<unknown[]> {
  return (await webhookMessages(rt, sender, message)).map((m) => m.text);
}
