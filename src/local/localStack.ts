import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { Logger } from '@aws-lambda-powertools/logger';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { cardSource } from '../a2aServer/index.js';
import { DynamoConversationStore } from '../adapters/aws/dynamoConversationStore.js';
import { DynamoReplyStore } from '../adapters/aws/dynamoReplyStore.js';
import { DynamoTaskStore } from '../adapters/aws/dynamoTaskStore.js';
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
import { serveHttp } from '../adapters/local/httpServer.js';
import { DynamoInbox, InboxJobQueue, keptInInbox } from '../adapters/local/inbox.js';
import { LocalSecretStore } from '../adapters/local/localSecretStore.js';
import { localPushKey } from '../adapters/local/pushKey.js';
import { lockStateFolder, type StateLock } from '../adapters/local/stateLock.js';
import { assembleDialogue } from '../assembly/index.js';
import type { Assistant } from '../assistant/index.js';
import { a2aPushChannel, a2aServerChannel, standardChannels } from '../channels/index.js';
import { messagingChannels, platformApiRoots } from '../channels/messaging/index.js';
import { DemoModel } from '../demo/demoModel.js';
import type { ActionPort, LlmPort } from '../dialogue/index.js';
import { type ChatModel, hasModelAccess, type ToolChatPort } from '../llm/index.js';
import { SwitchboardError, sleep } from '../resilience/index.js';
import {
  COMMIT_RESERVE_MS,
  createRuntime,
  isLostRace,
  JOB_BUDGET_MS,
  type ReplyBatch,
  type ReplyStore,
  type Runtime,
  runWorkerLoop,
} from '../runtime/index.js';
import { BrowserHub, browserChannel, serveSocketIo } from './browserChannel.js';
import { inspectorChannel } from './inspect/inspector.js';
import { StepJournal } from './inspect/journal.js';
import { storeQueries } from './inspect/queries.js';
import { printingReplies, userLine, watchedReplies } from './turnLines.js';

export const LOCAL_TABLE = 'switchboard';
const QUEUE_PREFIX = 'switchboard';
const TTL_SECONDS = 30 * 24 * 3600;
/**
 * Jobs in progress at once, as concurrent Lambda workers would run them: a hung peer holds one
 * slot until its job's budget ends, and the others keep taking jobs.
 */
const JOB_SLOTS = 32;
/** How long jobs in progress may go on after a stop request. */
const STOP_GRACE_MS = 10_000;
/** How long waiting webhooks get for their turns to settle when the stack stops. */
const WEBHOOK_GRACE_MS = 5_000;

export interface LocalStackOptions {
  readonly assistant: Assistant;
  readonly port: number;
  /** Keep conversations in this folder across restarts (in memory otherwise). */
  readonly dataDir?: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Overrides the command generator's model (tests pass a scripted one). */
  readonly llm?: LlmPort;
  /** Overrides the agents' model (tests pass a scripted one). */
  readonly agentModel?: ToolChatPort;
  /**
   * The model played without a key (no OPENAI_API_KEY or api_base), with the line that says so;
   * the scripted demo model by default.
   */
  readonly standIn?: { readonly model: ChatModel; readonly announce: string };
  /** Wraps the project's custom actions (`switchboard test` puts its stubs in front). */
  readonly wrapActions?: (actions: ActionPort) => ActionPort;
  /** How long the REST webhook waits for a turn to settle. */
  readonly replyWaitMs?: number;
  /** Each job's budget (default `JOB_BUDGET_MS`, as a Lambda worker gives). */
  readonly jobBudgetMs?: number;
  readonly announce: (line: string) => void;
  /** Prints each user message and each bot message as the conversations go on (`run` does). */
  readonly showTurns?: (line: string) => void;
  /** Hears of each batch of bot messages once it is delivered (the shell shows them). */
  readonly watchReplies?: (batch: ReplyBatch) => void;
  /** Sees the stack's AWS clients before first use (`npm run bench cost` meters their requests). */
  readonly instrument?: (clients: {
    readonly dynamo: DynamoDBClient;
    readonly sqs: SQSClient;
  }) => void;
}

export interface LocalStack {
  readonly url: string;
  readonly runtime: Runtime;
  /** What the browser channel passes to the followers of its conversations. */
  readonly hub: BrowserHub;
  stop(): Promise<void>;
}

/**
 * The runtime on one machine: the same DynamoDB and SQS adapters as on AWS, against dynalite
 * and fauxqs in this process, a pool of job slots on the job queue, a loop that releases delayed jobs,
 * and the HTTP API on loopback.
 */
export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const { assistant, env } = options;
  const restToken = localRestToken(env);
  const logger = new Logger({
    serviceName: 'switchboard',
    logLevel: (env.SWITCHBOARD_LOG_LEVEL ?? 'WARN') as 'WARN',
  });
  const emulators: RunningEmulator[] = [];
  // Before the database opens: a second process on the folder is told who holds it.
  const lock: StateLock | undefined = options.dataDir
    ? await lockStateFolder(path.resolve(options.dataDir))
    : undefined;
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
    options.instrument?.({ dynamo: dynamoClient, sqs });
    await ensureTable(dynamoClient, LOCAL_TABLE);
    const jobBudgetMs = options.jobBudgetMs ?? JOB_BUDGET_MS;
    // As on AWS: six times a worker's timeout (the budget plus the margin kept to report), so a
    // job in progress is never handed to a second loop.
    const visibilityTimeoutSeconds = 6 * Math.ceil((jobBudgetMs + COMMIT_RESERVE_MS) / 1000);
    const queues = await ensureQueues(sqs, { prefix: QUEUE_PREFIX, visibilityTimeoutSeconds });

    const now = () => Date.now();
    const queueOptions = {
      client: sqs,
      jobsQueueUrl: queues.jobsQueueUrl,
      delayQueueUrl: queues.delayQueueUrl,
      now,
    };
    const table = { client: documents, tableName: LOCAL_TABLE, ttlSeconds: TTL_SECONDS, now };
    const secrets = new LocalSecretStore({
      file: path.join(assistant.projectDir, '.secrets.json'),
      env,
    });
    if (!options.llm && !hasModelAccess(assistant.commandGenerator.llm, assistant, env)) {
      options.announce(
        options.standIn?.announce ??
          'no OPENAI_API_KEY or model api_base: using the scripted demo model, which plays the demo conversation of the README',
      );
      if (assistant.rephraser) options.announce('responses are not rephrased with the demo model');
    }
    const pushKey = localPushKey(secrets, options.dataDir);
    let url: string | undefined;
    const parts = await assembleDialogue({
      assistant,
      env,
      secrets,
      logger,
      withoutAccess: { standIn: options.standIn?.model ?? new DemoModel() },
      pushKey,
      // Agents that name no push URL notify this stack, once its server listens.
      pushBaseUrl: () => url,
      ...(options.llm ? { llm: options.llm } : {}),
      ...(options.agentModel ? { agentModel: options.agentModel } : {}),
      ...(options.wrapActions ? { wrapActions: options.wrapActions } : {}),
    });
    const serverStopping = new AbortController();
    // The browser's streams end as soon as the stack stops: they are no requests to wait for.
    const streamsStopping = new AbortController();
    const sqsQueue = new SqsJobQueue(queueOptions);
    // The emulated queue lives in memory: with --state, accepted messages wait in the table too.
    const inbox = options.dataDir
      ? new DynamoInbox({ client: documents, tableName: LOCAL_TABLE, now })
      : undefined;
    const queue = inbox ? new InboxJobQueue(sqsQueue, inbox) : sqsQueue;
    const hub = new BrowserHub();
    const store = new DynamoConversationStore(table);
    const journal = new StepJournal();
    const queries = storeQueries({
      store,
      documents,
      tableName: LOCAL_TABLE,
      sleep: (ms) => sleep(ms),
      journal,
    });
    const runtime = createRuntime({
      store,
      queue,
      replies: watching(new DynamoReplyStore(table), options),
      channels: (context) => [
        ...standardChannels(context),
        a2aPushChannel(context, { pushKey }),
        browserChannel(context, { hub, logger, streamsStopping: streamsStopping.signal }),
        inspectorChannel({
          assistant,
          queries,
          env,
          secrets: [restToken],
          now,
          stopping: streamsStopping.signal,
        }),
        ...messagingChannels(context, assistant.channels, {
          secrets,
          logger,
          apiRoots: platformApiRoots(env),
        }),
        ...(assistant.a2aServer
          ? [
              a2aServerChannel(context, {
                settings: assistant.a2aServer,
                card: cardSource(assistant.a2aServer, assistant),
                tasks: new DynamoTaskStore(table),
                secrets,
                pushKey,
                logger,
                baseUrl: () => url,
                // A caller on the same machine or network is the usual case here.
                pushToOwnNetwork: true,
              }),
            ]
          : []),
      ],
      now,
      newId: randomUUID,
      sleep: (ms) => sleep(ms),
      http: {
        replyWaitMs: options.replyWaitMs ?? 10_000,
        stopping: serverStopping.signal,
        ...(restToken === undefined ? {} : { authToken: async () => restToken }),
      },
      dialogue: { ...parts.dialogue, journal: journal.record },
    });

    if (inbox) {
      const resumed = await runtime.recover(await scanConversationIds(documents, LOCAL_TABLE));
      if (resumed > 0) options.announce(`resumed ${resumed} agent run(s) left by the previous run`);
      const accepted = await inbox.pending();
      await sqsQueue.enqueue(accepted);
      if (accepted.length > 0) {
        options.announce(
          `queued ${accepted.length} accepted message(s) the previous run had not handled`,
        );
      }
    }

    // Listening before the loops start: a port in use stops the start with nothing running.
    const server = await serveHttp(runtime.http, options.port, logger);
    url = server.url;
    const socketIo = assistant.channels?.socketio;
    const stopSocketIo = socketIo
      ? await serveSocketIo(server.server, socketIo, { queue, newId: randomUUID }, hub, {
          token: restToken,
          logger,
        })
      : undefined;
    const stopping = new AbortController();
    // Jobs in progress get a little time to finish when the stack stops, then are aborted.
    const jobsDeadline = new AbortController();
    const receiver = new SqsJobReceiver(sqs);
    // One pool of slots, as concurrent Lambda workers: the FIFO queue keeps each conversation serial.
    const jobs = runWorkerLoop({
      source: new SqsJobSource(receiver, queues.jobsQueueUrl, logger),
      process: async (job, signal, deadline) => {
        const said = options.showTurns && userLine(job);
        if (said) options.showTurns?.(said);
        await runtime.processJob(job, signal, { deadline });
        if (inbox && keptInInbox(job)) await inbox.remove(job.id);
      },
      concurrency: JOB_SLOTS,
      jobBudgetMs,
      isRetryable: isLostRace,
      logger,
      signal: stopping.signal,
      jobSignal: jobsDeadline.signal,
    });
    const forwarder = new DelayedJobForwarder(queueOptions);
    const delayed = runWorkerLoop({
      source: new SqsJobSource(receiver, queues.delayQueueUrl, logger),
      process: (job) => forwarder.forward(job),
      isRetryable: () => false,
      logger,
      signal: stopping.signal,
    });

    return {
      url: server.url,
      runtime,
      hub,
      stop: async () => {
        streamsStopping.abort();
        await stopSocketIo?.();
        // No new requests; the job pool goes on, so waiting webhooks can get their turns'
        // replies for a while; then those still waiting answer with what they have.
        const answered = await server.drain(WEBHOOK_GRACE_MS);
        serverStopping.abort();
        if (!answered) await server.drain(WEBHOOK_GRACE_MS);
        // The loops take no more jobs; the ones in progress commit, within a bound. Queued
        // jobs stay in the inbox (with --state) for the next start.
        stopping.abort();
        const deadline = setTimeout(
          () => jobsDeadline.abort(new Error('the stack is stopping')),
          STOP_GRACE_MS,
        );
        await Promise.allSettled([jobs, delayed]);
        clearTimeout(deadline);
        await server.close();
        await parts.close();
        sqs.destroy();
        dynamoClient.destroy();
        await closeAll(emulators);
        await lock?.release();
      },
    };
  } catch (error) {
    await closeAll(emulators);
    await lock?.release();
    throw error;
  }
}

/** The reply store, printing turns and telling a watcher of them when the options ask. */
function watching(
  replies: ReplyStore,
  options: Pick<LocalStackOptions, 'showTurns' | 'watchReplies'>,
): ReplyStore {
  const printed = options.showTurns ? printingReplies(replies, options.showTurns) : replies;
  return options.watchReplies ? watchedReplies(printed, options.watchReplies) : printed;
}

/**
 * `SWITCHBOARD_REST_TOKEN` is set but blank: serving would mean serving without a token.
 * Code `REST_TOKEN_BLANK`.
 */
export class BlankRestTokenError extends SwitchboardError {
  override readonly name = 'BlankRestTokenError';
  override readonly code = 'REST_TOKEN_BLANK';
  constructor() {
    super(
      'SWITCHBOARD_REST_TOKEN is set but blank: set it to a token (e.g. `openssl rand -hex 32`), or unset it to serve without authentication',
    );
  }
}

/** The API token from the environment: undefined when unset; a blank one is refused. */
function localRestToken(env: LocalStackOptions['env']): string | undefined {
  const token = env.SWITCHBOARD_REST_TOKEN;
  if (token !== undefined && token.trim() === '') throw new BlankRestTokenError();
  return token;
}

async function closeAll(emulators: readonly RunningEmulator[]): Promise<void> {
  await Promise.allSettled([...emulators].reverse().map((e) => e.close()));
}
