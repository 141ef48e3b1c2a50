import type { ChannelContext, Job, ReplyBatch } from '../../src/runtime/index.js';

/**
 * A channel's context for tests that look at what a channel queues: jobs go into `queued`, the
 * reply store is empty and forgets what it is given, and the clock stands at `now`.
 */
export function recordingContext(
  queued: Job[],
  options: { readonly now?: number; readonly newId?: () => string } = {},
): ChannelContext {
  return {
    queue: { enqueue: async (jobs) => void queued.push(...jobs) },
    store: {} as never,
    replies: { read: async () => ({ messages: [], settled: false }), deliver: async () => {} },
    newId: options.newId ?? (() => 'fresh'),
    now: () => options.now ?? 0,
    sleep: async () => {},
    replyWaitMs: 0,
  };
}

/** A batch of one bot message of a conversation on `channel`, as the runtime delivers it. */
export function oneMessageBatch(
  channel: string,
  conversationId: string,
  message: Record<string, unknown>,
): ReplyBatch {
  return {
    conversationId,
    turnId: 't-1',
    jobId: 'j-1',
    version: 1,
    channel,
    settled: true,
    messages: [{ id: 'm-1', recipient_id: conversationId, message }],
  };
}
