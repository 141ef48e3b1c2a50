import type { ConversationStore } from '../runtime/ports.js';

/** A conversation as Rasa's tracker endpoint shows it. */
export interface TrackerView {
  readonly sender_id: string;
  readonly slots: Readonly<Record<string, unknown>>;
  readonly events: readonly unknown[];
  readonly stack: readonly unknown[];
}

/** The tracker: slots and stack from the head; the logged events plus those not yet delivered. */
export async function readTracker(
  store: ConversationStore,
  senderId: string,
): Promise<TrackerView> {
  const head = await store.load(senderId);
  if (!head) return { sender_id: senderId, slots: {}, events: [], stack: [] };
  const logged = await store.readEvents(senderId);
  const seen = new Set(logged.map((e) => e.seq));
  const pending = (head.outbox?.events ?? []).filter((e) => !seen.has(e.seq));
  return {
    sender_id: senderId,
    slots: head.state.slots,
    events: [...logged, ...pending].sort((a, b) => a.seq - b.seq).map((e) => e.event),
    stack: head.state.stack,
  };
}
