import type { AgentOutput, SubAgent } from '../assistant/index.js';
import type { AgentInvocation, BotMessage } from '../dialogue/index.js';

/** What one step of a run decided: go on (after a delay, e.g. polling), or finish. */
export type StepNext =
  | { readonly type: 'continue'; readonly delayMs?: number }
  | { readonly type: 'done'; readonly output: AgentOutput };

export interface StepResult {
  /** The run's data after the step (JSON-serializable); stored for the next step. */
  readonly data: unknown;
  /** Intermediate messages for the user (filler messages, progress updates). */
  readonly messages?: readonly BotMessage[];
  readonly next: StepNext;
}

export interface StepContext {
  readonly conversationId: string;
  readonly runId: string;
  readonly signal: AbortSignal;
  /** A pushed update (A2A push notification) that triggered this step, if any. */
  readonly update?: unknown;
}

/**
 * Runs one kind of sub agent durably, one step per job: a ReAct iteration (one LLM call and the
 * tools it asked for) or one A2A exchange, poll or pushed update.
 */
export interface AgentRunner {
  /** The run's initial data for an invocation: no I/O, so it can be committed with the turn. */
  start(invocation: AgentInvocation): unknown;
  step(data: unknown, context: StepContext): Promise<StepResult>;
}

/** Finds the runner for an agent. */
export interface AgentRunners {
  runnerFor(agent: SubAgent): AgentRunner | undefined;
}
