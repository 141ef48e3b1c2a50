/**
 * How a step of an A2A run ends: with the agent's answer (through the agent class's
 * `processOutput`), with a fatal error, or waiting on a task that is still working (for a push,
 * or polls with backoff until `max_polling_time`); and which of the agent's status messages the
 * user is shown on the way.
 */
import type { Message, Task } from '@a2a-js/sdk';
import type { AgentOutput } from '../assistant/index.js';
import type { BotMessage } from '../dialogue/index.js';
import { backoffDelay } from '../resilience/index.js';
import { outputOfTask, textOf } from './messages.js';
import type { A2ARunData } from './runData.js';
import type { A2AStep, A2AStepResult } from './step.js';

/** Status messages remembered as shown, so a repeated update or poll shows none twice. */
const SHOWN_KEPT = 20;
/** The longest pause between two polls. */
export const MAX_POLL_DELAY_MS = 30_000;

/** A task as it stands: its output when it has stopped working, else the run waits on. */
export async function onTask(
  step: A2AStep,
  data: A2ARunData,
  task: Task,
  id: string,
  messages: BotMessage[],
): Promise<A2AStepResult> {
  const output = outputOfTask(id, task);
  if (output) return finish(step, data, output, messages);
  const said = newStatusMessage(data, task.status?.message);
  return waitFor(step, said?.run ?? data, said ? [...messages, said.message] : messages);
}

/** Waits for the task: a push (polled now and then), or polls with backoff until the limit. */
export async function waitFor(
  step: A2AStep,
  data: A2ARunData,
  messages: BotMessage[],
  giveUp?: () => Promise<void>,
): Promise<A2AStepResult> {
  const now = step.now();
  const waitingSince = data.waitingSince ?? now;
  const run = { ...data, waitingSince };
  const config = step.agent.configuration;
  const limitMs = config.max_polling_time * 1000;
  if (run.push) {
    // The push finishes the run; a poll now and then covers a notification that never came.
    return { data: run, messages, next: { type: 'continue', delayMs: limitMs } };
  }
  const waited = now - waitingSince;
  if (waited >= limitMs) {
    await giveUp?.();
    return done(
      run,
      fatal(
        run,
        `the agent's task did not finish within max_polling_time (${config.max_polling_time} s)`,
      ),
      messages,
    );
  }
  const schedule = { baseMs: config.polling_initial_delay * 1000, maxMs: MAX_POLL_DELAY_MS };
  const delayMs = Math.max(1, Math.min(backoffDelay(schedule, run.polls + 1), limitMs - waited));
  return { data: run, messages, next: { type: 'continue', delayMs } };
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

/** A status message not shown yet, as a bot message (and the run remembering it). */
export function newStatusMessage(
  data: A2ARunData,
  message: Pick<Message, 'messageId' | 'parts'> | undefined,
): { run: A2ARunData; message: BotMessage } | undefined {
  const text = textOf(message?.parts);
  if (!message || !text) return undefined;
  const key = message.messageId || text;
  if (data.shown.includes(key)) return undefined;
  return {
    run: { ...data, shown: [...data.shown, key].slice(-SHOWN_KEPT) },
    message: { text, metadata: { intermediate: true, agent_id: data.agentId } },
  };
}
