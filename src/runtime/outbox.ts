import * as z from 'zod/mini';
import { BotMessage, DialogueEvent } from '../dialogue/index.js';
import { Job } from './jobs.js';

/** A bot message on its way to the user, with an id that stays the same if it is sent again. */
export const OutboundMessage = z.lazy(() =>
  z.object({
    id: z.string(),
    recipient_id: z.string(),
    message: BotMessage,
  }),
);
export type OutboundMessage = z.infer<typeof OutboundMessage>;

export const SequencedEvent = z.lazy(() =>
  z.object({
    seq: z.int().check(z.nonnegative()),
    event: DialogueEvent,
  }),
);
/** An event with its position in the conversation's log. */
export type SequencedEvent = z.infer<typeof SequencedEvent>;

/**
 * What a job committed together with the state and delivers after the commit: its events for
 * the log, its messages for the channel, and follow-up jobs. Delivery is idempotent, so a crash
 * between commit and delivery, or a repeated delivery, neither loses nor duplicates anything.
 */
export const Outbox = z.lazy(() =>
  z.object({
    job_id: z.string(),
    turn_id: z.string(),
    channel: z.string(),
    /** The head version this outbox was committed with. */
    version: z.int().check(z.minimum(1)),
    events: z.array(SequencedEvent),
    messages: z.array(OutboundMessage),
    /** True when the turn is over: the assistant waits for the user, not for an agent. */
    settled: z.boolean(),
    /** Earlier turns this job ended without messages (their agent run was cancelled). */
    settle_turns: z._default(z.array(z.string()), []),
    jobs: z.array(Job),
  }),
);
export type Outbox = z.infer<typeof Outbox>;
