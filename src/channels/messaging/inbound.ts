/**
 * What the messaging channels share on the way in: the job a platform's message becomes, with an
 * id derived from the platform's own event id, so that a delivery the platform repeats (Slack and
 * Telegram retry until they get a quick 200, Twilio on errors) is the same job and is dropped.
 */
import { createHash } from 'node:crypto';
import type { Job } from '../../runtime/index.js';

export interface InboundMessage {
  /** The platform's id of the event, unique per channel. */
  readonly eventId: string;
  readonly conversationId: string;
  readonly text: string;
  readonly metadata?: Readonly<Record<string, unknown>>;
  /**
   * Whether the user typed the text (not a button's payload): then it is never read as
   * `/SetSlots(…)` and the like, so that no user can set a slot the flow does not ask for.
   */
  readonly typed: boolean;
}

/** The job of a platform's message: the same event always gives the same job id. */
export function inboundJob(channel: string, message: InboundMessage): Job {
  const id = `${channel}-${createHash('sha256').update(message.eventId).digest('hex').slice(0, 40)}`;
  return {
    type: 'user_message',
    id,
    conversation_id: message.conversationId,
    turn_id: id,
    text: message.text,
    ...(message.metadata ? { metadata: { ...message.metadata } } : {}),
    ...(message.typed ? { typed: true } : {}),
    channel,
  };
}

/** The conversation id of a platform's chat: `<channel>:<the platform's id>`. */
export function conversationOf(channel: string, platformId: string): string {
  return `${channel}:${platformId}`;
}

/** The platform's id of a conversation `conversationOf` named, or undefined for another's. */
export function platformIdOf(channel: string, conversationId: string): string | undefined {
  const prefix = `${channel}:`;
  return conversationId.startsWith(prefix) ? conversationId.slice(prefix.length) : undefined;
}
