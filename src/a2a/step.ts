/**
 * One step of an A2A run as the runner hands it on to sending, reading a stream, following a
 * task up and ending the step: what the step works with, and what it returns.
 */
import type { A2ASubAgent } from '../assistant/index.js';
import type { StepContext, StepResult } from '../runtime/index.js';
import type { A2AAgent } from './agent.js';
import type { A2AConnection, CallScope } from './connection.js';
import type { A2ARunData } from './runData.js';

/** What one step of an A2A run returns. */
export type A2AStepResult = StepResult<A2ARunData>;

/** One step of a run: the agent, its connection, the job it runs in, and the runner's parts. */
export interface A2AStep {
  readonly agent: A2ASubAgent;
  readonly connection: A2AConnection;
  readonly context: StepContext;
  /** The job's signal and deadline, for each call to the agent. */
  readonly scope: CallScope;
  /** The agent's class (its `processInput` and `processOutput`), made on first use. */
  readonly custom: () => A2AAgent;
  readonly now: () => number;
  /** Cancels the run's task (best effort), when the run gives up on it. */
  readonly cancelTask: (data: A2ARunData) => Promise<void>;
}
