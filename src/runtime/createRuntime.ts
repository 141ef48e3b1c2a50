/**
 * The one wiring of the runtime. Entry points (the Lambda handlers, the local stack) choose
 * adapters — store, queue, reply store, secret store, model factory, tool port, agent runners,
 * channels, clock — and call `createRuntime`; it assembles the engine, the output router and,
 * through `createHttpRuntime`, the channels and the HTTP route table, so that every entry point
 * runs the same thing. The HTTP handlers call `createHttpRuntime` alone.
 */
import type { Assistant, LlmConfig } from '../assistant/index.js';
import {
  type ActionPort,
  DialogueEngine,
  type LlmPort,
  type McpToolPort,
} from '../dialogue/index.js';
import type { Logger } from '../resilience/index.js';
import type { AgentRunners } from './agentRunner.js';
import { type JobOptions, type JobOutcome, processJob, processJobRetryingRaces } from './commit.js';
import { createHttpRuntime, type HttpRuntime, type RuntimeParts } from './httpRuntime.js';
import type { Job } from './jobs.js';
import { outputRouter, streamingChannels } from './outputRouter.js';
import { recoverPendingWork } from './recovery.js';
import { rephrasePort, STDERR_LOGGER } from './rephrasePort.js';
import type { RuntimeDeps } from './runtimeDeps.js';
import type { StepReport } from './stepReport.js';

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
  readonly logger?: Logger;
  /** Told of each agent step after its commit (see `RuntimeDeps.journal`). */
  readonly journal?: (report: StepReport) => void;
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

/** Assembles a whole runtime from adapters and the dialogue parts. */
export function createRuntime(parts: RuntimeParts & { readonly dialogue: DialogueParts }): Runtime {
  const { http, channels } = createHttpRuntime(parts);
  const { dialogue } = parts;
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
    ...(dialogue.journal ? { journal: dialogue.journal } : {}),
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
