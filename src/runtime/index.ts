export type {
  AgentRunner,
  AgentRunners,
  StepContext,
  StepNext,
  StepResult,
} from './agentRunner.js';
export type { JobType } from './jobs.js';
export { Job } from './jobs.js';
export { OutboundMessage, Outbox, SequencedEvent } from './outbox.js';
export type {
  AgentRunRecord,
  CommitRequest,
  ConversationHead,
  ConversationStore,
  JobQueue,
  OutputChannel,
  ReplyBatch,
  ReplyStore,
  SecretStore,
} from './ports.js';
export { ConcurrentUpdateError } from './ports.js';
export type { JobOutcome, RuntimeDeps } from './processor.js';
export { deliverOutbox, processJob, processJobRetryingRaces } from './processor.js';
export type { JobSource, ReceivedJob, WorkerLogger, WorkerLoopOptions } from './worker.js';
export { runWorkerLoop } from './worker.js';
