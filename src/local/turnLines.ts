/**
 * What `switchboard run` prints while conversations go on: each user message as its job starts,
 * and each bot message as its batch is delivered, one line each on the terminal.
 */
import type { Job, ReplyBatch, ReplyStore } from '../runtime/index.js';

/** The longest text a line shows; the rest is cut with "…". */
const MAX_TEXT = 200;

/** A text as one line a terminal shows as it is: no control characters, at most 200 characters. */
export function shown(text: string): string {
  // One line, and nothing a terminal would act on (escape sequences from a hostile message).
  const line = terminalText(text).replace(/\s+/g, ' ');
  return line.length <= MAX_TEXT ? line : `${line.slice(0, MAX_TEXT)}…`;
}

/**
 * A text as a terminal may show it whole: its line breaks kept, and nothing a terminal would act
 * on (control characters, escape sequences, bidirectional overrides) left in it.
 */
export function terminalText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[^\S\n]+/g, ' ')
    .replace(/[\u202A-\u202E\u2066-\u2069]/g, '')
    .replace(/(?!\n)\p{Cc}/gu, '')
    .trim();
}

/** The line of a user message's job, or undefined for every other job. */
export function userLine(job: Job): string | undefined {
  if (job.type !== 'user_message') return undefined;
  return `${job.conversation_id} < ${shown(job.text)}`;
}

/** The lines of a delivered batch: one per bot message, with its buttons' titles. */
export function botLines(batch: ReplyBatch): string[] {
  return batch.messages.map(({ message }) => {
    const buttons = (message.buttons ?? []).map((b) => b.title).filter(Boolean);
    const text = message.text !== undefined ? shown(message.text) : '(a message without text)';
    return `${batch.conversationId} > ${text}${buttons.length > 0 ? ` [${buttons.join(' | ')}]` : ''}`;
  });
}

/** `replies`, telling `watch` of each batch once it is delivered. */
export function watchedReplies(
  replies: ReplyStore,
  watch: (batch: ReplyBatch) => void,
): ReplyStore {
  return {
    read: (conversationId, turnId) => replies.read(conversationId, turnId),
    deliver: async (batch) => {
      await replies.deliver(batch);
      watch(batch);
    },
    ...(replies.work ? { work: replies.work.bind(replies) } : {}),
    ...(replies.preview ? { preview: replies.preview.bind(replies) } : {}),
  };
}

/** `replies`, printing each delivered batch's messages with `line`. */
export function printingReplies(replies: ReplyStore, line: (text: string) => void): ReplyStore {
  return watchedReplies(replies, (batch) => {
    for (const text of botLines(batch)) line(text);
  });
}
