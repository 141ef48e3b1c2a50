/**
 * Job budgets: every job runs against a deadline, and the calls it makes (models, tools, actions,
 * agents) against an earlier one, so that a slow peer ends in a result the job can still commit
 * (a retry later, an error the flow answers) instead of a job that dies and is delivered again.
 */
import { SwitchboardError, timedSignal } from '../resilience/index.js';

/**
 * What a worker gives one job by default: a Lambda worker's 60 s timeout less the 5 s it keeps
 * to report a failure. The local stack uses the same, and its queue's visibility timeout is
 * longer, as on AWS, so a job in progress is never handed out twice.
 */
export const JOB_BUDGET_MS = 55_000;
/** Kept back from a job's budget for committing after its last call, at most. */
export const COMMIT_RESERVE_MS = 5_000;

/** The deadline of a job's calls: its own deadline less a reserve for the commit. */
export function callDeadline(jobDeadline: number, now: number): number {
  const budget = Math.max(0, jobDeadline - now);
  return jobDeadline - Math.floor(Math.min(COMMIT_RESERVE_MS, budget / 4));
}

/** A job's own abort signal and deadline; `dispose` when the job is over. */
export interface JobScope {
  readonly signal: AbortSignal;
  readonly deadline: number;
  /** Aborts the job now (a hard stop of the worker that runs it). */
  abort(reason: unknown): void;
  dispose(): void;
}

/**
 * A signal for one job: aborted when `parent` aborts (the process stops) or when `budgetMs` has
 * passed. Each job gets its own, so listeners that clients add per call die with the job instead
 * of piling up on a long-lived signal.
 */
export function jobScope(budgetMs: number, now: number, parent?: AbortSignal): JobScope {
  const timed = timedSignal(budgetMs, parent, () => new JobDeadlineError(budgetMs));
  return { ...timed, deadline: now + budgetMs };
}

/**
 * A job ran out of its budget.
 * Code `JOB_DEADLINE_EXCEEDED`, transient: the job runs again with a new budget.
 */
export class JobDeadlineError extends SwitchboardError {
  override readonly name = 'JobDeadlineError';
  override readonly code = 'JOB_DEADLINE_EXCEEDED';
  constructor(readonly budgetMs: number) {
    super(`the job ran out of its ${budgetMs} ms budget`, { transient: true });
  }
}
