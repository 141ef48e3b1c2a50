import type { DialogueModel } from './model.js';
import type { DialoguePorts } from './ports.js';
import type { Turn } from './turn.js';

/** What the steps of one turn work with. */
export interface TurnContext {
  readonly model: DialogueModel;
  readonly turn: Turn;
  readonly ports: DialoguePorts;
  readonly channel?: string;
  readonly signal?: AbortSignal;
  /** When calls to models, tools and actions must be over (ms since the epoch). */
  readonly deadline?: number;
  /** Identifies the turn's job across its retries; part of every tool call's `callKey`. */
  readonly callKey?: string;
  /** Leave a failure worth another try to the caller (see `TurnOptions.retryUnavailable`). */
  readonly retryUnavailable?: boolean;
}
