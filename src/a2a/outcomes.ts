/**
 * How a step of an A2A run ends: with the agent's answer (through the agent class's
 * `processOutput`), with a fatal error, or waiting on a task that is still working: reading its
 * stream again, waiting for a push, or polling with backoff until `max_polling_time`. Every wait
 * ends at `task_timeout`, counted from the message: then the task is cancelled and the run fails.
 * A task that still shows the question its answer was sent to is still working on that answer.
 */
import type { Task, TaskStatus } from '@a2a-js/sdk';
import type { AgentOutput } from '../assistant/index.js';
import type { BotMessage } from '../dialogue/index.js';
import { backoffDelay } from '../resilience/index.js';
import { outputOfTask, phaseOf, statusKey } from './messages.js';
import { sawState, taskProgress } from './progress.js';
import type { A2ARunData } from './runData.js';
import type { A2AStep, A2AStepResult } from './step.js';

/** The longest pause between two polls. */
export const MAX_POLL_DELAY_MS = 30_000;

/**
 * The task's answer to the run's message, once it has one: the output of a task that has stopped
 * working, unless it still shows the very question the message answers (a snapshot from before
 * the agent took the answer up). Undefined while it works. The task a send returns first for a
 * message that continues it (`opening`) is the task as the message found it: only its end is an
 * answer.
 */
export function verdictOf(
  data: A2ARunData,
  task: Task,
  id: string,
  opening = false,
): AgentOutput | undefined {
  if (stillAsking(data, task.status)) return undefined;
  if (opening && phaseOf(task.status?.state) === 'input_required') return undefined;
  return outputOfTask(id, task);
}

/** Whether a status is the question the run's message answers, shown again. */
export function stillAsking(data: A2ARunData, status: TaskStatus | undefined): boolean {
  return (
    data.asked !== undefined &&
    phaseOf(status?.state) === 'input_required' &&
    statusKey(status) === data.asked
  );
}

/**
 * A task as it stands: what it said that the user has not seen, then its answer when it has one;
 * otherwise the run waits on.
 */
export async function onTask(
  step: A2AStep,
  data: A2ARunData,
  task: Task,
  messages: BotMessage[] = [],
  opening = false,
): Promise<A2AStepResult> {
  const seen = sawState(data, task.status?.state, step.now());
  const output = verdictOf(seen, task, step.context.runId, opening);
  const said = taskProgress(seen, task, output !== undefined);
  const all = [...messages, ...said.messages];
  if (output) return finish(step, said.run, output, all);
  return waitFor(step, said.run, all);
}

/**
 * Waits for the task: its stream read again at once (`stream`), a push (polled now and then), or
 * polls with backoff until `max_polling_time`; never past `task_timeout`.
 */
export async function waitFor(
  step: A2AStep,
  data: A2ARunData,
  messages: BotMessage[],
  stream = false,
): Promise<A2AStepResult> {
  const now = step.now();
  const waitingSince = data.waitingSince ?? now;
  const run: A2ARunData = { ...data, waitingSince, stream };
  const config = step.agent.configuration;
  const waited = now - waitingSince;
  const leftMs = timeLeftMs(step, run);
  if (leftMs <= 0) {
    return giveUp(
      step,
      run,
      `the agent's task did not finish within task_timeout (${config.task_timeout} s)`,
      messages,
    );
  }
  if (stream) return { data: run, messages, next: { type: 'continue' } };
  const limitMs = config.max_polling_time * 1000;
  if (run.push) {
    // The push finishes the run; a poll now and then covers a notification that never came.
    return { data: run, messages, next: { type: 'continue', delayMs: Math.min(limitMs, leftMs) } };
  }
  if (waited >= limitMs) {
    return giveUp(
      step,
      run,
      `the agent's task did not finish within max_polling_time (${config.max_polling_time} s)`,
      messages,
    );
  }
  const schedule = { baseMs: config.polling_initial_delay * 1000, maxMs: MAX_POLL_DELAY_MS };
  const delayMs = Math.max(
    1,
    Math.min(backoffDelay(schedule, run.polls + 1), limitMs - waited, leftMs),
  );
  return { data: run, messages, next: { type: 'continue', delayMs } };
}

/** How long the run may still wait for its task before `task_timeout` ends it. */
export function timeLeftMs(step: A2AStep, data: A2ARunData): number {
  const since = data.waitingSince ?? step.now();
  return since + step.agent.configuration.task_timeout * 1000 - step.now();
}

/** Gives up on the task: it is cancelled, so that it does not go on for nobody, and the run fails. */
async function giveUp(
  step: A2AStep,
  data: A2ARunData,
  reason: string,
  messages: BotMessage[],
): Promise<A2AStepResult> {
  await step.cancelTask(data);
  return done(data, fatal(data, reason), messages);
}

/** Ends the run with the agent's answer, through the agent class's `processOutput`. */
export async function finish(
  step: A2AStep,
  data: A2ARunData,
  output: AgentOutput,
  messages: BotMessage[] = [],
): Promise<A2AStepResult> {
  const processed = await step.custom().processOutput(output);
  return done(data, processed, messages);
}

/** Ends the run with `output`, as it is. */
export function done(
  data: A2ARunData,
  output: AgentOutput,
  messages: BotMessage[] = [],
): A2AStepResult {
  return { data, messages, next: { type: 'done', output } };
}

/** The run's output when it fails for good. */
export function fatal(data: A2ARunData, reason: string): AgentOutput {
  return { id: data.messageId, status: 'fatal_error', errorMessage: reason };
}
