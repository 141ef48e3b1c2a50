import * as z from 'zod/mini';
import { Command } from '../dialogue/index.js';

const base = {
  /** Unique; the queue deduplicates on it and the processor skips a job it already ran. */
  id: z.string().check(z.minLength(1)).check(z.maxLength(128)),
  conversation_id: z.string().check(z.minLength(1)),
  /** The user message whose turn this job belongs to; its replies are grouped under it. */
  turn_id: z.string().check(z.minLength(1)),
  /** Do not run before this time (milliseconds since the epoch): the delay path holds it. */
  not_before: z.optional(z.number()),
};

/**
 * A unit of work: one per invocation. A user message runs a turn; an agent step runs one
 * iteration of a sub agent's run (one LLM call and its tools, or one A2A exchange or poll);
 * an agent update delivers a pushed update (A2A push notification) to a run; an agent cancel
 * cancels what a cancelled agent left running elsewhere (a remote task), best effort; set slots
 * writes slot values into a conversation without a user message (test fixtures); channel work is
 * a channel's own follow-up outside the conversation's state (the A2A server's push
 * notifications), run by that channel's output.
 */
export const Job = z.lazy(() =>
  z.discriminatedUnion('type', [
    z.object({
      type: z.literal('user_message'),
      ...base,
      text: z.string(),
      metadata: z.optional(z.record(z.string(), z.unknown())),
      /**
       * What the message asks, already known (a channel's cancel): the command generator is not
       * asked.
       */
      commands: z.optional(z.array(Command)),
      /** Typed on a public platform: never read as a button payload (see `UserMessage.typed`). */
      typed: z.optional(z.boolean()),
      channel: z.string(),
      /** Earlier tries of this message that the model failed (the retry policy's count). */
      attempt: z.optional(z.int().check(z.nonnegative())),
    }),
    z.object({
      type: z.literal('agent_step'),
      ...base,
      frame_id: z.string(),
      run_id: z.string(),
      step: z.int().check(z.nonnegative()),
    }),
    z.object({
      type: z.literal('agent_update'),
      ...base,
      frame_id: z.string(),
      run_id: z.string(),
      update: z.unknown(),
    }),
    z.object({
      type: z.literal('agent_cancel'),
      ...base,
      agent_id: z.string(),
      /** The cancelled run and its record, when the agent was working. */
      run_id: z.optional(z.string()),
      record: z.optional(z.string()),
      /** The ids a waiting agent kept (an A2A task waiting for the user). */
      session: z.optional(z.record(z.string(), z.string())),
    }),
    z.object({
      type: z.literal('channel_work'),
      ...base,
      /** The channel whose output runs it. */
      channel: z.string(),
      /** What to do, in the channel's own terms (it parses this). */
      work: z.unknown(),
    }),
    z.object({
      type: z.literal('set_slots'),
      ...base,
      /** Slot name → value, each fitted to its slot's type as a `set slot` command's value is. */
      slots: z.record(z.string(), z.unknown()),
      /** The channel the conversation is on (its replies, if any, go there). */
      channel: z.string(),
    }),
  ]),
);
export type Job = z.infer<typeof Job>;
export type JobType = Job['type'];

/** How many job ids a head remembers to recognise a job delivered again. */
export const RECENT_JOBS = 50;

/** A queue message's body decoded: a job, or why it is not one (never quoting the body). */
export type DecodedJob = { ok: true; job: Job } | { ok: false; reason: string };

/** Decodes a queue message's body into a job. */
export function decodeJob(body: string | undefined): DecodedJob {
  let data: unknown;
  try {
    data = JSON.parse(body ?? '');
  } catch {
    // The parser's message quotes the body, which is not ours to log.
    return { ok: false, reason: 'body is not JSON' };
  }
  const result = Job.safeParse(data);
  if (result.success) return { ok: true, job: result.data };
  return {
    ok: false,
    reason: `body is not a job: ${z.prettifyError(result.error).replaceAll('\n', '; ')}`,
  };
}
