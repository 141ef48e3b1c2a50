import type { DialogueEvent, Frame } from '../dialogue/index.js';
import {
  type Channel,
  type ChannelContext,
  type ConversationStore,
  HttpError,
} from '../runtime/index.js';

/** The most events one tracker answer holds: about 2.4 MB at 1.2 KB an event, under 6 MB. */
export const TRACKER_MAX_EVENTS = 2000;

/** A conversation as Rasa's tracker endpoint shows it. */
export interface TrackerView {
  readonly sender_id: string;
  readonly slots: Readonly<Record<string, unknown>>;
  readonly events: readonly DialogueEvent[];
  readonly stack: readonly Frame[];
  /** Present when later events exist: ask again with `after` = `next_after`. */
  readonly truncated?: true;
  readonly next_after?: number;
}

/** Which events a tracker shows: those with `seq > after`, at most `limit`. */
export interface TrackerPage {
  readonly after?: number;
  readonly limit?: number;
}

/** The tracker: slots and stack from the head; the logged events plus those not yet delivered. */
export async function readTracker(
  store: ConversationStore,
  senderId: string,
  page: TrackerPage = {},
): Promise<TrackerView> {
  const head = await store.load(senderId);
  if (!head) return { sender_id: senderId, slots: {}, events: [], stack: [] };
  const after = page.after ?? -1;
  const limit = page.limit ?? TRACKER_MAX_EVENTS;
  const logged = await store.readEventPage(senderId, { after, limit });
  const seen = new Set(logged.events.map((e) => e.seq));
  const pending = (head.outbox?.events ?? []).filter((e) => e.seq > after && !seen.has(e.seq));
  // Logged events come first and in order; an outbox's are the latest.
  const events = [...logged.events, ...pending];
  const shown = events.slice(0, limit);
  const view = {
    sender_id: senderId,
    slots: head.state.slots,
    events: shown.map((e) => e.event),
    stack: head.state.stack,
  };
  const last = shown.at(-1);
  const truncated = logged.more || events.length > limit;
  return truncated && last ? { ...view, truncated: true, next_after: last.seq } : view;
}

/** The `after` and `limit` query parameters of a tracker request; anything else is ignored. */
export function trackerPage(path: string): TrackerPage {
  const query = new URLSearchParams(path.split('?')[1] ?? '');
  const after = integerParameter(query, 'after', 0, Number.MAX_SAFE_INTEGER);
  const limit = integerParameter(query, 'limit', 1, TRACKER_MAX_EVENTS);
  return { ...(after === undefined ? {} : { after }), ...(limit === undefined ? {} : { limit }) };
}

function integerParameter(
  query: URLSearchParams,
  name: string,
  min: number,
  max: number,
): number | undefined {
  const values = query.getAll(name);
  if (values.length === 0) return undefined;
  const value = values[0] ?? '';
  if (values.length > 1 || !/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new HttpError(400, `${name} must be one integer from ${min} to ${max}`);
  }
  return Number(value);
}

/**
 * `GET /conversations/{sender}/tracker[?after=<seq>&limit=<n>]`: a conversation's slots,
 * events (those after event number `after`, at most `limit`) and dialogue stack.
 */
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
          body: await readTracker(
            context.store,
            request.params.sender ?? '',
            trackerPage(request.path),
          ),
        }),
      },
    ],
  };
}
