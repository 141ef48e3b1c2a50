import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { Logger } from '@aws-lambda-powertools/logger';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { projectActions } from '../../actionServer/index.js';
import { projectAgents } from '../../agents/index.js';
import type { Assistant } from '../../assistant/index.js';
import { a2aPushChannel, standardChannels } from '../../channels/index.js';
import type { ActionPort, LlmPort } from '../../dialogue/index.js';
import { loadProjectActions } from '../../extensions/index.js';
import { hasModelAccess, modelFactory, type ToolChatPort } from '../../llm/index.js';
import { projectMcp } from '../../mcp/index.js';
import { SwitchboardError, sleep } from '../../resilience/index.js';
import {
  COMMIT_RESERVE_MS,
  createRuntime,
  isLostRace,
  JOB_BUDGET_MS,
  type Runtime,
  runWorkerLoop,
} from '../../runtime/index.js';
import { DynamoConversationStore } from '../aws/dynamoConversationStore.js';
import { DynamoReplyStore } from '../aws/dynamoReplyStore.js';
import { scanConversationIds } from '../aws/scanConversations.js';
import { DelayedJobForwarder, SqsJobQueue } from '../aws/sqsJobQueue.js';
import { SqsJobReceiver } from '../aws/sqsJobReceiver.js';
import { SqsJobSource } from '../aws/sqsJobSource.js';
import {
  ensureQueues,
  ensureTable,
  localAwsConfig,
  type RunningEmulator,
  startDynalite,
  startFauxqs,
} from './emulators.js';
import { serveHttp } from './httpServer.js';
import { DynamoInbox, InboxJobQueue } from './inbox.js';
import { LocalSecretStore } from './localSecretStore.js';
import { localPushKey } from './pushKey.js';

export const LOCAL_TABLE = 'switchboard';
const QUEUE_PREFIX = 'switchboard';
const TTL_SECONDS = 30 * 24 * 3600;
/** Worker loops on the job queue. */
const WORKER_LOOPS = 4;
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
  /** Wraps the project's custom actions (`switchboard test` puts its stubs in front). */
  readonly wrapActions?: (actions: ActionPort) => ActionPort;
  /** How long the REST webhook waits for a turn to settle. */
  readonly replyWaitMs?: number;
  /** Each job's budget (default `JOB_BUDGET_MS`, as a Lambda worker gives). */
  readonly jobBudgetMs?: number;
  readonly announce: (line: string) => void;
}

export interface LocalStack {
  readonly url: string;
  readonly runtime: Runtime;
  stop(): Promise<void>;
}

/**
 * The runtime on one machine: the same DynamoDB and SQS adapters as on AWS, against dynalite
 * and fauxqs in this process, worker loops on the job queue, a loop that releases delayed jobs,
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
        'no OPENAI_API_KEY or model api_base: using the scripted demo model, which plays the demo conversation of the README',
      );
      if (assistant.rephraser) options.announce('responses are not rephrased with the demo model');
    }
    const models = modelFactory({ assistant, env, secrets, withoutAccess: 'demo' });
    const mcp = await projectMcp({ assistant, secrets, logger });
    const { llm, agentModel } = options;
    const pushKey = localPushKey(secrets, options.dataDir);
    let url: string | undefined;
    const runners = await projectAgents({
      assistant,
      models: agentModel ? () => agentModel : models,
      gateway: mcp.gateway,
      secrets,
      pushKey,
      // Agents that name no push URL notify this stack, once its server listens.
      pushBaseUrl: () => url,
      logger,
    });
    const serverStopping = new AbortController();
    const sqsQueue = new SqsJobQueue(queueOptions);
    // The emulated queue lives in memory: with --state, accepted messages wait in the table too.
    const inbox = options.dataDir
      ? new DynamoInbox({ client: documents, tableName: LOCAL_TABLE, now })
      : undefined;
    const runtime = createRuntime({
      store: new DynamoConversationStore(table),
      queue: inbox ? new InboxJobQueue(sqsQueue, inbox) : sqsQueue,
      replies: new DynamoReplyStore(table),
      channels: (context) => [...standardChannels(context), a2aPushChannel(context, { pushKey })],
      now,
      newId: randomUUID,
      sleep: (ms) => sleep(ms),
      http: {
        replyWaitMs: options.replyWaitMs ?? 10_000,
        stopping: serverStopping.signal,
        ...(restToken === undefined ? {} : { authToken: async () => restToken }),
      },
      dialogue: {
        assistant,
        models: llm ? () => llm : models,
        actions: (options.wrapActions ?? ((actions) => actions))(
          projectActions(await loadProjectActions(assistant), { assistant, secrets, logger }),
        ),
        mcp: mcp.flowTools,
        runners,
        random: Math.random,
        logger,
      },
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

    const stopping = new AbortController();
    // Jobs in progress get a little time to finish when the stack stops, then are aborted.
    const jobsDeadline = new AbortController();
    const receiver = new SqsJobReceiver(sqs);
    // Several loops, as several Lambda workers would: the FIFO queue keeps each conversation serial.
    const jobs = Promise.all(
      Array.from({ length: WORKER_LOOPS }, () =>
        runWorkerLoop({
          source: new SqsJobSource(receiver, queues.jobsQueueUrl, logger),
          process: async (job, signal, deadline) => {
            await runtime.processJob(job, signal, { deadline });
            if (inbox && job.type === 'user_message') await inbox.remove(job.id);
          },
          jobBudgetMs,
          isRetryable: isLostRace,
          logger,
          signal: stopping.signal,
          jobSignal: jobsDeadline.signal,
        }),
      ),
    );
    const forwarder = new DelayedJobForwarder(queueOptions);
    const delayed = runWorkerLoop({
      source: new SqsJobSource(receiver, queues.delayQueueUrl, logger),
      process: (job) => forwarder.forward(job),
      isRetryable: () => false,
      logger,
      signal: stopping.signal,
    });

    const server = await serveHttp(runtime.http, options.port, logger);
    url = server.url;
    return {
      url: server.url,
      runtime,
      stop: async () => {
        // No new requests; the worker loops go on, so waiting webhooks can get their turns'
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
        await mcp.gateway.close();
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
