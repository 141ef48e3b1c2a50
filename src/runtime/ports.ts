import type { ConversationState } from '../dialogue/index.js';
import { codeOf, SwitchboardError } from '../resilience/index.js';
import type { Job } from './jobs.js';
import type { OutboundMessage, Outbox, SequencedEvent } from './outbox.js';

/** The head of a conversation: everything a job needs, in one bounded record. */
export interface ConversationHead {
  /** Increases by one per commit; the commit point of optimistic concurrency. */
  readonly version: number;
  readonly state: ConversationState;
  /** The last commit's outbox while it is not yet delivered. */
  readonly outbox: Outbox | undefined;
  /** Ids of the latest jobs, so that a job delivered twice runs once. */
  readonly recentJobs: readonly string[];
  /** The sequence number the next event gets. */
  readonly nextSeq: number;
  /** Active agent runs: run id → id of the job that wrote the run's current record. */
  readonly runs: Readonly<Record<string, string>>;
  /** The channel the user last wrote on: where the conversation's messages go. */
  readonly channel: string;
}

/** A sub agent's run state between its steps, opaque to the runtime. */
export interface AgentRunRecord {
  readonly runId: string;
  /** The job that wrote this record: part of its key, so attempts never overwrite each other. */
  readonly jobId: string;
  readonly agentId: string;
  readonly data: unknown;
}

export interface CommitRequest {
  readonly conversationId: string;
  /** The version that was loaded (0 for a new conversation). */
  readonly expectedVersion: number;
  /** The new head; its version is `expectedVersion + 1` and its outbox holds the job's events. */
  readonly head: ConversationHead;
  /** Run records the job wrote; stored before the head, which then points to them. */
  readonly runs: readonly AgentRunRecord[];
}

/**
 * Stores conversations: one bounded head per conversation (the commit point), the event log
 * (one item per committed version), and agent run records.
 */
export interface ConversationStore {
  load(conversationId: string): Promise<ConversationHead | undefined>;
  /** Writes the run records, then the head if its version is still `expectedVersion`. */
  commit(request: CommitRequest): Promise<void>;
  /** Appends a committed version's events to the log; writing the same version again is a no-op. */
  appendEvents(
    conversationId: string,
    version: number,
    events: readonly SequencedEvent[],
  ): Promise<void>;
  /** Forgets a delivered outbox, unless a later commit replaced the head. */
  clearOutbox(conversationId: string, version: number): Promise<void>;
  loadRun(
    conversationId: string,
    runId: string,
    jobId: string,
  ): Promise<AgentRunRecord | undefined>;
  /** Logged events in order (not those of an undelivered outbox); for the tracker, not for jobs. */
  readEvents(conversationId: string): Promise<SequencedEvent[]>;
  /** Logged events in `range`, in order, reading only the part of the log the range needs. */
  readEventPage(conversationId: string, range: EventRange): Promise<EventPage>;
}

/** A part of the event log: events with `seq > after` (all when absent), at most `limit`. */
export interface EventRange {
  readonly after?: number;
  readonly limit?: number;
}

export interface EventPage {
  readonly events: SequencedEvent[];
  /** Whether logged events beyond these exist. */
  readonly more: boolean;
}

/**
 * Another job committed first; the job must run again on the new state.
 * Code `CONCURRENT_UPDATE`, transient: the job runs again on the new version.
 */
export class ConcurrentUpdateError extends SwitchboardError {
  override readonly name = 'ConcurrentUpdateError';
  override readonly code = 'CONCURRENT_UPDATE';
  constructor(
    readonly conversationId: string,
    readonly expectedVersion: number,
    options?: { cause?: unknown },
  ) {
    super(`conversation ${conversationId} changed after version ${expectedVersion} was read`, {
      ...options,
      transient: true,
    });
  }
}

/** Whether a job failed only because another job of its conversation committed first. */
export function isLostRace(error: unknown): boolean {
  return codeOf(error) === 'CONCURRENT_UPDATE';
}

/** Queues jobs: in order per conversation, each once, later ones after their `not_before`. */
export interface JobQueue {
  enqueue(jobs: readonly Job[]): Promise<void>;
}

/** The messages one job of a turn produced, for the channel that carries the conversation. */
export interface ReplyBatch {
  readonly conversationId: string;
  readonly turnId: string;
  readonly jobId: string;
  /** The head version that committed them: orders the batches of a turn. */
  readonly version: number;
  readonly channel: string;
  readonly messages: readonly OutboundMessage[];
  readonly settled: boolean;
  /**
   * The conversation's state after the job that committed the batch, and that job's events: for
   * channels that report more than messages (the A2A server's task states). Absent in batches
   * that stores and tests make by hand.
   */
  readonly state?: ConversationState;
  readonly events?: readonly SequencedEvent[];
}

/** Text a model is writing for a conversation, shown live by a channel that streams. */
export interface TextPreview {
  readonly conversationId: string;
  readonly turnId: string;
  readonly channel: string;
  /** The agent run the text belongs to. */
  readonly runId: string;
  /**
   * The step (job) writing it: a step run again after a failure starts its text over with the
   * same id, so a channel can drop what it showed for it.
   */
  readonly stepId: string;
  /** The next piece of the text. */
  readonly delta: string;
}

/** A job a channel queued for itself, outside any conversation's state. */
export type ChannelWork = Extract<Job, { type: 'channel_work' }>;

/** Sends bot messages to a channel; sending the same batch twice must be harmless. */
export interface OutputChannel {
  deliver(batch: ReplyBatch): Promise<void>;
  /** Runs a job the channel queued for itself (it may run twice: it must be harmless then). */
  work?(job: ChannelWork, signal: AbortSignal): Promise<void>;
  /**
   * Shows text while a model writes it, for channels that stream. Best effort: a lost or
   * repeated piece is harmless, as the delivered batch holds the message that counts.
   */
  preview?(preview: TextPreview): Promise<void>;
}

/** Replies of the REST channel, kept until the waiting webhook (or a later request) reads them. */
export interface ReplyStore extends OutputChannel {
  read(
    conversationId: string,
    turnId: string,
  ): Promise<{ messages: OutboundMessage[]; settled: boolean }>;
}

/** Resolves a named secret (a credential's environment variable or secret name). */
export interface SecretStore {
  get(name: string): Promise<string>;
}

export type { SequencedEvent };
