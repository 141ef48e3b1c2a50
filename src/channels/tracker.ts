import type { DialogueEvent, Frame } from '../dialogue/index.js';
import type { Channel, ChannelContext, ConversationStore } from '../runtime/index.js';

/** A conversation as Rasa's tracker endpoint shows it. */
export interface TrackerView {
  readonly sender_id: string;
  readonly slots: Readonly<Record<string, unknown>>;
  readonly events: readonly DialogueEvent[];
  readonly stack: readonly Frame[];
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

/** `GET /conversations/{sender}/tracker`: a conversation's slots, events and dialogue stack. */
export function trackerChannel(context: ChannelContext): Channel {
  return {
    name: 'tracker',
    streams: false,
    routes: [
      {
        method: 'GET',
        path: '/conversations/{sender}/tracker',
        authenticated: true,
        handle: async (request) => ({
          status: 200,
          body: await readTracker(context.store, request.params.sender ?? ''),
        }),
      },
    ],
  };
}
