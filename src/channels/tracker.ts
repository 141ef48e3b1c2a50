import type { DialogueEvent } from '../dialogue/index.js';
import {
  type Channel,
  type ChannelContext,
  type ConversationHead,
  type ConversationStore,
  HttpError,
  type SequencedEvent,
} from '../runtime/index.js';
import { emptyTrackerState, type RasaTrackerState, rasaTrackerState } from './rasaTracker.js';

/** The most events one tracker answer holds: about 2.4 MB at 1.2 KB an event, under 6 MB. */
export const TRACKER_MAX_EVENTS = 2000;

/** A conversation as Rasa's tracker endpoint shows it, with the events of one page. */
export interface TrackerView extends RasaTrackerState {
  /** Present when later events exist: ask again with `after` = `next_after`. */
  readonly truncated?: true;
  readonly next_after?: number;
}

/** Which events a tracker shows: those with `seq > after`, at most `limit`. */
export interface TrackerPage {
  readonly after?: number;
  readonly limit?: number;
}

/**
 * The tracker: slots, stack and the latest of everything from the head; the logged events plus
 * those not yet delivered. The latest user message is read from the log when the page does not
 * hold it: one event, however long the conversation.
 */
export async function readTracker(
  store: ConversationStore,
  senderId: string,
  page: TrackerPage = {},
): Promise<TrackerView> {
  const head = await store.load(senderId);
  if (!head) return emptyTrackerState(senderId);
  const limit = page.limit ?? TRACKER_MAX_EVENTS;
  const logged = await eventsAfter(store, senderId, head, page.after ?? -1, limit);
  const events = logged.events;
  const shown = events.slice(0, limit);
  const view = rasaTrackerState({
    senderId,
    state: head.state,
    channel: head.channel,
    events: shown.map((e) => e.event),
    latestMessage: await latestMessage(store, senderId, head, events),
  });
  const last = shown.at(-1);
  const truncated = logged.more || events.length > limit;
  return truncated && last ? { ...view, truncated: true, next_after: last.seq } : view;
}

/**
 * A conversation's events after the event `after`: a page of the logged ones (at most `limit`),
 * then, when the page reaches the log's end, those of the head's outbox not logged yet, which are
 * the latest. `more` says the log holds more than the page.
 */
export async function eventsAfter(
  store: ConversationStore,
  senderId: string,
  head: ConversationHead,
  after: number,
  limit: number,
): Promise<{ events: SequencedEvent[]; more: boolean }> {
  const logged = await store.readEventPage(senderId, { after, limit });
  const seen = new Set(logged.events.map((e) => e.seq));
  const pending = logged.more
    ? []
    : (head.outbox?.events ?? []).filter((e) => e.seq > after && !seen.has(e.seq));
  return { events: [...logged.events, ...pending], more: logged.more };
}

type UserEvent = Extract<DialogueEvent, { event: 'user' }>;

/**
 * The latest user message, whole: among the events at hand, else read from the log at the place
 * the state keeps. A state that does not keep it has the message, clipped, in its recent events.
 */
async function latestMessage(
  store: ConversationStore,
  senderId: string,
  head: ConversationHead,
  events: readonly SequencedEvent[],
): Promise<UserEvent | undefined> {
  const clipped = head.state.recent_events.findLast((e): e is UserEvent => e.event === 'user');
  const index = head.state.latest_message?.index;
  if (index === undefined) return clipped;
  const near = [...events, ...(head.outbox?.events ?? [])].find((e) => e.seq === index);
  const found =
    near ?? (await store.readEventPage(senderId, { after: index - 1, limit: 1 })).events[0];
  return found?.seq === index && found.event.event === 'user' ? found.event : clipped;
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
 * `GET /conversations/{sender}/tracker[?after=<seq>&limit=<n>]`: a conversation in Rasa's tracker
 * shape, with its events after event number `after`, at most `limit`.
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
