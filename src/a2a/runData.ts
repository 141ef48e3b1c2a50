/**
 * An A2A run's data between its steps, parsed whenever its run is loaded: the agent, the message
 * until it is sent, the task's ids, the question the message answers, how the run follows the
 * task, how long and how often it has waited, and the status messages already shown.
 */
import type { Task } from '@a2a-js/sdk';
import * as z from 'zod/mini';
import { AgentInput } from '../assistant/index.js';
import type { AgentInvocation } from '../dialogue/index.js';

/** An A2A run's data between its steps. */
export const A2ARunData = z.lazy(() =>
  z.object({
    agentId: z.string(),
    /** The invocation's input; dropped once the message is sent. */
    input: z.optional(AgentInput),
    /** The id of the run's message (the same on a retried send, so an agent can drop a repeat). */
    messageId: z.string(),
    taskId: z.optional(z.string()),
    contextId: z.optional(z.string()),
    /**
     * The status that asked the question the message answers (`statusKey`): a task that still
     * shows it has not taken the answer up yet, so it is no verdict.
     */
    asked: z.optional(z.string()),
    /** Whether the next step reads the task's stream again (resubscribes) at once. */
    stream: z.optional(z.boolean()),
    /** When the run sent its message and began waiting for its task (ms since the epoch). */
    waitingSince: z.optional(z.number()),
    polls: z.int().check(z.nonnegative()),
    /** Whether the agent was given a push URL for the task. */
    push: z.boolean(),
    /** Ids of the agent's status messages already shown, newest last. */
    shown: z.array(z.string()),
    /** The task's states as the run saw them change (`working`, `completed`…), oldest first. */
    states: z.optional(z.array(z.object({ state: z.string(), at: z.number() }))),
  }),
);
export type A2ARunData = z.infer<typeof A2ARunData>;

/** The ids a task names, as the run keeps them. */
export function idsOf(task: Task): Pick<A2ARunData, 'taskId' | 'contextId'> {
  return {
    ...(task.id ? { taskId: task.id } : {}),
    ...(task.contextId ? { contextId: task.contextId } : {}),
  };
}

/**
 * The output metadata key (kept by the agent's frame and handed back in the next input's metadata)
 * naming the status that asked the user: the task still showing it has not taken the answer up.
 */
export const QUESTION_KEY = 'question_id';

/** A non-empty string at `key` of a metadata record, if there is one. */
export function stringAt(
  record: Readonly<Record<string, unknown>>,
  key: string,
): string | undefined {
  const value = record[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** A run's first data: no I/O and none of the A2A client, so a turn can start it with its commit. */
export function startA2ARun(invocation: AgentInvocation): A2ARunData {
  const asked = stringAt(invocation.input.metadata, QUESTION_KEY);
  return {
    agentId: invocation.agent.name,
    input: invocation.input,
    messageId: `msg-${invocation.input.id}`,
    ...(asked ? { asked } : {}),
    polls: 0,
    push: false,
    // The question was shown when it was asked.
    shown: asked ? [asked] : [],
  };
}
