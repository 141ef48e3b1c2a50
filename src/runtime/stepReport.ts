import type { AgentOutput } from '../assistant/index.js';

/**
 * One step of an agent's run as it ran: when, for how long, how it ended, and the runner's data
 * after it. The last step of a run writes no record (its output is in the conversation), so this
 * is the only account of it; see `RuntimeDeps.journal`.
 */
export interface StepReport {
  readonly conversationId: string;
  readonly runId: string;
  readonly agentId: string;
  readonly jobId: string;
  /** The step's number in its run, from 0. */
  readonly step: number;
  /** When the step began (ms since the epoch), and how long the runner took. */
  readonly startedAt: number;
  readonly durationMs: number;
  /**
   * `continued`: the run goes on; `done`: it ended with `output`; `retrying`: the step failed
   * and runs again (`reason`, after `retryInMs`); `failed`: it failed for good (`reason`).
   */
  readonly outcome: 'continued' | 'done' | 'retrying' | 'failed';
  readonly reason?: string;
  readonly retryInMs?: number;
  readonly output?: AgentOutput;
  /** The runner's data before the step, and after it (the same when the step failed). */
  readonly before: unknown;
  readonly runner: unknown;
}
