import type { $ZodType } from 'zod/v4/core';
import type { AgentOutput, SubAgent } from '../assistant/index.js';
import type { AgentInvocation, BotMessage } from '../dialogue/index.js';

/**
 * What one step of a run decided: go on (after a delay, e.g. polling), finish with an output,
 * or fail in a way worth another try (the runtime's retry policy decides when, and when to give
 * up). A `done` output with status `recoverable_error` is treated as a failure worth retrying.
 */
export type StepNext =
  | { readonly type: 'continue'; readonly delayMs?: number }
  | { readonly type: 'done'; readonly output: AgentOutput }
  | {
      readonly type: 'retry';
      readonly reason: string;
      /** The earliest a retry may run, e.g. from an HTTP `Retry-After`; backoff may wait longer. */
      readonly retryAfterMs?: number;
    };

export interface StepResult<TData = unknown> {
  /** The run's data after the step (JSON-serializable); stored for the next step. */
  readonly data: TData;
  /** Intermediate messages for the user (filler messages, progress updates). */
  readonly messages?: readonly BotMessage[];
  readonly next: StepNext;
}

export interface StepContext {
  readonly conversationId: string;
  readonly runId: string;
  readonly signal: AbortSignal;
  /** When the step's calls must be over (ms since the epoch); the job's budget ends soon after. */
  readonly deadline?: number;
  /** A pushed update (A2A push notification) that triggered this step, if any. */
  readonly update?: unknown;
  /**
   * Given when the conversation's channel streams: shows a piece of text the step's model is
   * writing, at once (best effort; the step's messages are what is delivered).
   */
  readonly preview?: (delta: string) => void;
}

/**
 * Runs one kind of sub agent durably, one step per job: a ReAct iteration (one LLM call and the
 * tools it asked for) or one A2A exchange, poll or pushed update. `TData` is the runner's own part
 * of a run record; `dataSchema` parses it whenever a run is loaded, so stored data is never cast.
 */
export interface AgentRunner<TData = unknown> {
  readonly dataSchema: $ZodType<TData>;
  /** The run's initial data for an invocation: no I/O, so it can be committed with the turn. */
  start(invocation: AgentInvocation): TData;
  step(data: TData, context: StepContext): Promise<StepResult<TData>>;
  /**
   * Cancels what an agent left running elsewhere (a remote task), best effort: the run's data
   * when its run was cancelled, or the ids a waiting agent kept (`session`). Runners of agents
   * with nothing remote leave it out.
   */
  cancel?(target: CancelTarget<TData>, scope: CancelScope): Promise<void>;
}

/** What a cancelled agent left: its run's data (a run was working) or its session ids. */
export interface CancelTarget<TData = unknown> {
  readonly agent: SubAgent;
  readonly conversationId: string;
  readonly data?: TData;
  readonly session?: Readonly<Record<string, string>>;
}

export interface CancelScope {
  readonly signal: AbortSignal;
  readonly deadline?: number;
}

/** Finds the runner for an agent. */
export interface AgentRunners {
  runnerFor(agent: SubAgent): AgentRunner | undefined;
}

/** No runner for any agent: an agent step ends the flow with the internal-error pattern. */
export const NO_RUNNERS: AgentRunners = { runnerFor: () => undefined };
