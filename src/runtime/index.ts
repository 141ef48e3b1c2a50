export type {
  AgentRunner,
  AgentRunners,
  CancelScope,
  CancelTarget,
  StepContext,
  StepNext,
  StepResult,
} from './agentRunner.js';
export { NO_RUNNERS } from './agentRunner.js';
export type { JobRun } from './agentSteps.js';
export { MAX_AGENT_TEXT } from './agentSteps.js';
export type {
  Channel,
  ChannelContext,
  ChannelFactory,
  HttpRequest,
  HttpResponse,
  ParamCheck,
  RequestBody,
  Route,
  RouteRequest,
} from './channel.js';
export { HttpError } from './channel.js';
export type { JobOptions, JobOutcome } from './commit.js';
export { processJob, processJobRetryingRaces } from './commit.js';
export type { DialogueParts, Runtime } from './createRuntime.js';
export { createRuntime } from './createRuntime.js';
export { deliverOutbox } from './delivery.js';
export type { HttpApi, HttpApiOptions } from './httpApi.js';
export {
  BlankSecretError,
  BlankTokenError,
  bodyTooLarge,
  createHttpApi,
  headerOf,
  MAX_BODY_BYTES,
  requireContentType,
  sameSecret,
} from './httpApi.js';
export type { HttpRuntime, RuntimeParts } from './httpRuntime.js';
export { createHttpRuntime } from './httpRuntime.js';
export type { JobScope } from './jobBudget.js';
export {
  COMMIT_RESERVE_MS,
  callDeadline,
  JOB_BUDGET_MS,
  JobDeadlineError,
  jobScope,
} from './jobBudget.js';
export type { DecodedJob, JobType } from './jobs.js';
export { decodeJob, Job, RECENT_JOBS } from './jobs.js';
export { OutboundMessage, Outbox, SequencedEvent } from './outbox.js';
export { outputRouter, UnknownChannelError } from './outputRouter.js';
export type {
  AgentRunRecord,
  ChannelWork,
  CommitRequest,
  ConversationHead,
  ConversationStore,
  JobQueue,
  OutputChannel,
  ReplyBatch,
  ReplyStore,
  SecretStore,
  TextPreview,
} from './ports.js';
export { ConcurrentUpdateError, isLostRace } from './ports.js';
export { recoverPendingWork } from './recovery.js';
export { BASE_DELAY_MS, JITTER, MAX_RETRIES, retryDelay } from './retryPolicy.js';
export { loadRunState, RUN_RECORD_VERSION, RunRecordError, RunState } from './runRecords.js';
export type { RuntimeDeps } from './runtimeDeps.js';
export { SENDER_ID_CHARS, senderIdProblem } from './senderId.js';
export { SlotValueError } from './setSlots.js';
export type { StepReport } from './stepReport.js';
export type { JobSource, ReceivedJob, WorkerLoopOptions } from './worker.js';
export { runWorkerLoop } from './worker.js';
