import type { TaskRecord } from './record.js';

/**
 * Where the A2A server keeps its tasks (DynamoDB, in the conversation's partition). Every write is
 * conditional, so that concurrent writers never lose each other's changes.
 */
export interface A2ATaskStore {
  load(conversationId: string, taskId: string): Promise<TaskRecord | undefined>;
  /**
   * Writes the task if it is new (version 1) or the stored one is the version before it; false
   * when another write came first (read it again and redo the change).
   */
  save(conversationId: string, record: TaskRecord): Promise<boolean>;
  /** Every task of a conversation. */
  list(conversationId: string): Promise<TaskRecord[]>;
  /**
   * Claims a message (by a key of its caller and id) for a turn until `expiresAt` (ms since the
   * epoch): undefined when claimed now, else the turn that holds it.
   */
  claimMessage(messageKey: string, turnId: string, expiresAt: number): Promise<string | undefined>;
  /** Gives back a claim the turn holds (nothing when another turn holds it). */
  releaseMessage(messageKey: string, turnId: string): Promise<void>;
  /** Marks a conversation as an open context; true when it was not one. */
  openContext(conversationId: string): Promise<boolean>;
  /** Forgets that a conversation is an open context. */
  closeContext(conversationId: string): Promise<void>;
  /**
   * Gives a new context the next of `limit` slots, taken in turn; the conversation that held the
   * slot before (the context opened longest ago), if any.
   */
  takeContextSlot(limit: number, conversationId: string): Promise<string | undefined>;
}
