/**
 * Replies to messaging platforms. One small client makes every platform call: a timeout, and an
 * answer sorted into sent, worth trying again (no answer, 408, 429, 5xx) or refused for good.
 * A channel's output sends a batch's messages in order as soon as it is delivered; when the
 * platform fails for a while, the messages not yet sent go into a channel job that tries them
 * again after a growing wait, and are logged once the tries run out. The messages handled are
 * recorded in the reply store, so a batch delivered again sends nothing twice; a crash between a
 * send and its record may still show a message twice (delivery is at least once).
 */
import { createHash } from 'node:crypto';
import * as z from 'zod/mini';
import {
  type BackoffSchedule,
  backoffDelay,
  describeError,
  isTransient,
  isTransientNetworkFailure,
  isTransientStatus,
  type Logger,
  networkCodeOf,
  parseRetryAfter,
  WireError,
} from '../../resilience/index.js';
import type {
  ChannelWork,
  Job,
  JobQueue,
  OutboundMessage,
  OutputChannel,
  ReplyBatch,
  ReplyStore,
} from '../../runtime/index.js';

/** How long one platform call may take. */
export const PLATFORM_TIMEOUT_MS = 10_000;
/** Tries of a message (the first send and the channel jobs after it) before it is given up. */
export const SEND_ATTEMPTS = 6;
const SEND_BACKOFF = { baseMs: 1_000, maxMs: 5 * 60_000, jitter: 0.2 };

/**
 * A platform call that did not succeed: `transient` when trying again later may succeed, with the
 * wait the platform asked for (`Retry-After`) in `retryAfterMs`.
 * Code `PLATFORM_CALL_FAILED`.
 */
export class PlatformError extends WireError {
  override readonly name = 'PlatformError';
  override readonly code = 'PLATFORM_CALL_FAILED';
}

export interface PlatformCall {
  /** What the call does, for errors and logs (`slack chat.postMessage`). */
  readonly what: string;
  readonly url: string;
  readonly method?: 'GET' | 'POST';
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
}

/**
 * Makes one platform call and returns its answer when it succeeded (2xx); otherwise throws a
 * `PlatformError`. Redirects are not followed: a platform API answers where it is called.
 */
export async function callPlatform(
  call: PlatformCall,
  signal: AbortSignal,
  fetchImpl: typeof fetch = fetch,
): Promise<Response> {
  let response: Response;
  try {
    response = await fetchImpl(call.url, {
      method: call.method ?? 'POST',
      headers: call.headers ?? {},
      ...(call.body !== undefined ? { body: call.body } : {}),
      redirect: 'manual',
      signal: AbortSignal.any([signal, AbortSignal.timeout(PLATFORM_TIMEOUT_MS)]),
    });
  } catch (error) {
    const transient = isTransientNetworkFailure(error) || signal.aborted;
    // `fetch failed` alone says little: the network's code says why (ECONNREFUSED, ENOTFOUND).
    const code = networkCodeOf(error);
    const why = `${describeError(error)}${code ? ` (${code})` : ''}`;
    throw new PlatformError(`${call.what}: ${why}`, { transient, cause: error });
  }
  if (response.ok) return response;
  const detail = (await response.text().catch(() => '')).slice(0, 200);
  throw new PlatformError(
    `${call.what} answered ${response.status}${detail ? `: ${detail}` : ''}`,
    {
      status: response.status,
      transient: isTransientStatus(response.status),
      retryAfterMs: parseRetryAfter(response.headers),
    },
  );
}

/** Sends one bot message of a conversation to its platform; throws `PlatformError`. */
export type SendMessage = (
  conversationId: string,
  message: OutboundMessage,
  signal: AbortSignal,
) => Promise<void>;

export interface MessagingOutputOptions {
  /** The channel's name: its jobs and batches carry it. */
  readonly channel: string;
  readonly send: SendMessage;
  readonly queue: JobQueue;
  readonly now: () => number;
  readonly logger?: Logger;
  readonly random?: () => number;
  readonly backoff?: BackoffSchedule;
  /**
   * Where the messages handled are recorded, by id: a batch delivered again (the runtime may
   * deliver an outbox twice) sends only what it did not send before.
   */
  readonly replies?: ReplyStore;
}

const SendWork = z.lazy(() =>
  z.object({
    kind: z.literal('send'),
    /** The messages still to send, in order. */
    messages: z.array(
      z.object({
        id: z.string(),
        recipient_id: z.optional(z.string()),
        message: z.record(z.string(), z.unknown()),
      }),
    ),
    /** Tries so far of the first of them. */
    attempt: z.int().check(z.nonnegative()),
  }),
);

/** The output of a messaging channel: sends each delivered batch, trying failures again later. */
export function messagingOutput(options: MessagingOutputOptions): OutputChannel {
  return {
    deliver: async (batch: ReplyBatch) => {
      if (batch.messages.length === 0) return;
      const handled = options.replies
        ? new Set(
            (await options.replies.read(batch.conversationId, batch.turnId)).messages.map(
              (m) => m.id,
            ),
          )
        : new Set<string>();
      const fresh = batch.messages.filter((m) => !handled.has(m.id));
      if (fresh.length === 0) return;
      await sendInOrder(options, batch.conversationId, batch.turnId, fresh, 0);
      // Sent, refused or queued to be tried again: either way not to be sent again from here.
      await options.replies?.deliver({ ...batch, messages: fresh });
    },
    work: async (job: ChannelWork, signal: AbortSignal) => {
      const work = SendWork.safeParse(job.work);
      if (!work.success) return;
      const messages = work.data.messages as OutboundMessage[];
      await sendInOrder(
        options,
        job.conversation_id,
        job.turn_id,
        messages,
        work.data.attempt,
        signal,
      );
    },
  };
}

async function sendInOrder(
  options: MessagingOutputOptions,
  conversationId: string,
  turnId: string,
  messages: readonly OutboundMessage[],
  attempt: number,
  signal: AbortSignal = new AbortController().signal,
): Promise<void> {
  for (const [i, message] of messages.entries()) {
    const tries = i === 0 ? attempt : 0;
    try {
      await options.send(conversationId, message, signal);
    } catch (error) {
      const fields = { channel: options.channel, conversationId, messageId: message.id };
      if (!isTransient(error)) {
        // A refusal of the platform, or a fault here (a secret that cannot be read).
        const refused = error instanceof PlatformError;
        options.logger?.warn(
          refused
            ? 'a reply was refused by its platform; it is not sent again'
            : 'a reply could not be sent; it is not sent again',
          { ...fields, error: describeError(error) },
        );
        continue;
      }
      if (tries + 1 >= SEND_ATTEMPTS) {
        options.logger?.warn('gave up sending a reply to its platform', {
          ...fields,
          attempts: tries + 1,
          error: describeError(error),
        });
        continue;
      }
      // The rest waits too, so that the conversation's messages keep their order.
      const wait = Math.max(
        backoffDelay(options.backoff ?? SEND_BACKOFF, tries + 1, options.random),
        (error as { retryAfterMs?: number }).retryAfterMs ?? 0,
      );
      await options.queue.enqueue([
        retryJob(options.channel, conversationId, turnId, messages.slice(i), tries + 1, {
          notBefore: options.now() + wait,
        }),
      ]);
      options.logger?.info('a reply will be sent again later', {
        ...fields,
        attempt: tries + 1,
        waitMs: wait,
        error: describeError(error),
      });
      return;
    }
  }
}

function retryJob(
  channel: string,
  conversationId: string,
  turnId: string,
  messages: readonly OutboundMessage[],
  attempt: number,
  at: { notBefore: number },
): Job {
  // The same messages at the same try give the same job: a batch delivered twice queues one.
  const digest = createHash('sha256')
    .update(`${conversationId}\n${messages.map((m) => m.id).join('\n')}`)
    .digest('hex')
    .slice(0, 32);
  return {
    type: 'channel_work',
    id: `${channel}-send-${digest}-${attempt}`,
    conversation_id: conversationId,
    turn_id: turnId,
    channel,
    work: { kind: 'send', messages, attempt },
    not_before: at.notBefore,
  };
}

/**
 * A text cut into parts of at most `limit` characters, for a platform that refuses longer ones:
 * at the last paragraph break, else line break, else space before the limit (a word longer than
 * the limit is cut where it must be). The parts, joined, hold every word of the text.
 */
export function splitText(text: string, limit: number): string[] {
  const parts: string[] = [];
  let rest = text;
  while (rest.length > limit) {
    const window = rest.slice(0, limit + 1);
    const at = [window.lastIndexOf('\n\n'), window.lastIndexOf('\n'), window.lastIndexOf(' ')].find(
      (i) => i > 0,
    );
    const cut = at ?? limit;
    parts.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).trimStart();
  }
  if (rest !== '' || parts.length === 0) parts.push(rest);
  return parts;
}
