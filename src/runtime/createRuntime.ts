/**
 * The one wiring of the runtime. Entry points (the Lambda handlers, the local stack) choose
 * adapters — store, queue, reply store, secret store, model factory, tool port, agent runners,
 * channels, clock — and call `createRuntime`; it assembles the engine, the channels, the output
 * router and the HTTP route table, so that every entry point runs the same thing.
 */
import type { Assistant, LlmConfig } from '../assistant/index.js';
import {
  type ActionPort,
  DialogueEngine,
  type LlmPort,
  type McpToolPort,
} from '../dialogue/index.js';
import type { AgentRunners } from './agentRunner.js';
import type { ChannelContext, ChannelFactory } from './channel.js';
import { type JobOptions, type JobOutcome, processJob, processJobRetryingRaces } from './commit.js';
import { createHttpApi, type HttpApi } from './httpApi.js';
import type { Job } from './jobs.js';
import { outputRouter, streamingChannels } from './outputRouter.js';
import { recoverPendingWork } from './recovery.js';
import { type RephraseLogger, rephrasePort, STDERR_LOGGER } from './rephrasePort.js';
import type { RuntimeDeps } from './runtimeDeps.js';

/**
 * The environment-specific pieces every runtime needs: the stores and queue, a clock, and the
 * channels with their HTTP settings.
 */
export interface RuntimeParts extends Omit<ChannelContext, 'replyWaitMs' | 'stopping'> {
  readonly channels: ChannelFactory;
  readonly http: {
    /** How long a webhook waits for its turn to settle. */
    readonly replyWaitMs: number;
    /** The bearer token authenticated routes need; none when it resolves to undefined. */
    readonly authToken?: () => Promise<string | undefined>;
    /** Aborted when the server stops: waiting webhooks answer with what they have. */
    readonly stopping?: AbortSignal;
  };
}

/** What running conversations needs beyond the HTTP side: the assistant and its peers. */
export interface DialogueParts {
  readonly assistant: Assistant;
  /** The model for an `llm` block (undefined: the default). */
  readonly models: (llm: LlmConfig | undefined) => LlmPort;
  readonly actions: ActionPort;
  readonly mcp: McpToolPort;
  readonly runners: AgentRunners;
  /** Chooses among response variations and jitters retries; [0, 1). */
  readonly random: () => number;
  /** Where responses left as written (their rephrasing failed) are logged; stderr by default. */
  readonly logger?: RephraseLogger;
}

/** The HTTP side: what a webhook handler runs. */
export interface HttpRuntime {
  readonly http: HttpApi;
}

/** A whole runtime: the HTTP side and the job side. */
export interface Runtime extends HttpRuntime {
  readonly deps: RuntimeDeps;
  /** Runs one job under the commit protocol. */
  processJob(job: Job, signal: AbortSignal, options?: JobOptions): Promise<JobOutcome>;
  /** Runs one job, again at once when another job of the conversation committed first. */
  processJobRetryingRaces(job: Job, signal: AbortSignal, options?: JobOptions): Promise<JobOutcome>;
  /** Delivers left-over outboxes and queues in-progress runs again (after a restart). */
  recover(conversationIds: readonly string[]): Promise<number>;
}

/** Assembles a runtime from adapters; without dialogue parts, only its HTTP side. */
export function createRuntime(parts: RuntimeParts & { readonly dialogue: DialogueParts }): Runtime;
export function createRuntime(parts: RuntimeParts): HttpRuntime;
export function createRuntime(
  parts: RuntimeParts & { readonly dialogue?: DialogueParts },
): HttpRuntime | Runtime {
  const context: ChannelContext = {
    queue: parts.queue,
    store: parts.store,
    replies: parts.replies,
    newId: parts.newId,
    now: parts.now,
    sleep: parts.sleep,
    replyWaitMs: parts.http.replyWaitMs,
    ...(parts.http.stopping ? { stopping: parts.http.stopping } : {}),
  };
  const channels = parts.channels(context);
  const http = createHttpApi(
    channels,
    parts.http.authToken ? { authToken: parts.http.authToken } : {},
  );
  const { dialogue } = parts;
  if (!dialogue) return { http };
  const { assistant, models } = dialogue;
  const llm = models(assistant.commandGenerator.llm);
  const logger = dialogue.logger ?? STDERR_LOGGER;
  const rephrase = rephrasePort(assistant, models, llm, logger);

  const deps: RuntimeDeps = {
    engine: new DialogueEngine(assistant),
    store: parts.store,
    queue: parts.queue,
    output: outputRouter(channels),
    streams: streamingChannels(channels),
    runners: dialogue.runners,
    ports: {
      llm,
      mcp: dialogue.mcp,
      actions: dialogue.actions,
      now: parts.now,
      random: dialogue.random,
      warn: (message, fields) => logger.warn(message, { ...fields }),
      ...(rephrase ? { rephrase } : {}),
    },
  };
  return {
    http,
    deps,
    processJob: (job, signal, options) => processJob(job, deps, signal, options),
    processJobRetryingRaces: (job, signal, options) =>
      processJobRetryingRaces(job, deps, signal, options),
    recover: (conversationIds) => recoverPendingWork(deps, conversationIds),
  };
}
