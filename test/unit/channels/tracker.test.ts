import { describe, expect, it } from 'vitest';
import { emptyTrackerState } from '../../../src/channels/rasaTracker.js';
import { readTracker, TRACKER_MAX_EVENTS, trackerChannel } from '../../../src/channels/tracker.js';
import { initialState } from '../../../src/dialogue/index.js';
import { createHttpApi, type Outbox, type SequencedEvent } from '../../../src/runtime/index.js';
import type {
  ConversationHead,
  ConversationStore,
  EventPage,
  EventRange,
} from '../../../src/runtime/ports.js';

const userEvent = (seq: number): SequencedEvent => ({
  seq,
  event: { event: 'user', text: `m${seq}`, timestamp: 0 },
});

/** A store holding one conversation: `logged` events in its log, `pending` in its outbox. */
function storeWith(senderId: string, logged: number, pending = 0): ConversationStore {
  const log = Array.from({ length: logged }, (_, i) => userEvent(i));
  const outbox: Outbox | undefined =
    pending === 0
      ? undefined
      : {
          job_id: 'j',
          turn_id: 't',
          channel: 'rest',
          version: 2,
          events: Array.from({ length: pending }, (_, i) => userEvent(logged + i)),
          messages: [],
          settled: true,
          settle_turns: [],
          jobs: [],
        };
  const state = initialState(senderId, {});
  const head: ConversationHead = {
    version: 2,
    state: { ...state, slots: { city: 'Paris' } },
    outbox,
    recentJobs: [],
    nextSeq: logged + pending,
    runs: {},
    channel: 'rest',
  };
  const page = (range: EventRange): EventPage => {
    const after = log.filter((e) => e.seq > (range.after ?? -1));
    const limit = range.limit ?? after.length;
    return { events: after.slice(0, limit), more: after.length > limit };
  };
  const unused = () => Promise.reject(new Error('not used by the tracker'));
  return {
    load: async (id) => (id === senderId ? head : undefined),
    readEvents: async () => log,
    readEventPage: async (id, range) =>
      id === senderId ? page(range) : { events: [], more: false },
    commit: unused,
    appendEvents: unused,
    clearOutbox: unused,
    loadRun: unused,
  };
}

function api(store: ConversationStore) {
  const unused = () => Promise.reject(new Error('not used by the tracker'));
  return createHttpApi([
    trackerChannel({
      store,
      queue: { enqueue: unused },
      replies: { deliver: unused, read: unused },
      newId: () => 'id',
      now: () => 0,
      sleep: async () => {},
      replyWaitMs: 0,
    }),
  ]);
}

const get = (path: string) => ({ method: 'GET', path, headers: {} });
const texts = (body: unknown) =>
  (body as { events: { text?: string }[] }).events.map((e) => e.text);

describe('tracker', () => {
  it("answers with Rasa's tracker fields and every event when they all fit", async () => {
    const response = await api(storeWith('ada', 3, 1)).handle(get('/conversations/ada/tracker'));

    expect(response.status).toBe(200);
    expect(Object.keys(response.body as object)).toEqual([
      'sender_id',
      'slots',
      'latest_message',
      'latest_event_time',
      'followup_action',
      'paused',
      'stack',
      'events',
      'latest_input_channel',
      'active_loop',
      'latest_action',
      'latest_action_name',
    ]);
    expect(texts(response.body)).toEqual(['m0', 'm1', 'm2', 'm3']);
  });

  it('pages with after and limit, and says where the next page starts', async () => {
    const http = api(storeWith('bo', 10));

    const first = await http.handle(get('/conversations/bo/tracker?after=2&limit=4'));
    expect(texts(first.body)).toEqual(['m3', 'm4', 'm5', 'm6']);
    expect(first.body).toMatchObject({ truncated: true, next_after: 6 });

    const last = await http.handle(get('/conversations/bo/tracker?after=6&limit=4'));
    expect(texts(last.body)).toEqual(['m7', 'm8', 'm9']);
    expect(last.body).not.toHaveProperty('truncated');
  });

  it('includes the events of an outbox not yet delivered, also across a page boundary', async () => {
    const store = storeWith('cy', 3, 3);

    const first = await readTracker(store, 'cy', { after: 1, limit: 3 });
    expect(texts(first)).toEqual(['m2', 'm3', 'm4']);
    expect(first).toMatchObject({ truncated: true, next_after: 4 });
    const rest = await readTracker(store, 'cy', { after: 4, limit: 3 });
    expect(texts(rest)).toEqual(['m5']);
    expect(rest.truncated).toBeUndefined();
  });

  it(`caps an answer without a limit at ${TRACKER_MAX_EVENTS} events and flags it`, async () => {
    const response = await api(storeWith('di', TRACKER_MAX_EVENTS + 5)).handle(
      get('/conversations/di/tracker'),
    );

    const body = response.body as { events: unknown[]; truncated?: boolean; next_after?: number };
    expect(body.events).toHaveLength(TRACKER_MAX_EVENTS);
    expect(body.truncated).toBe(true);
    expect(body.next_after).toBe(TRACKER_MAX_EVENTS - 1);
  });

  it.each([
    ['after=-1', 'after'],
    ['after=1.5', 'after'],
    ['after=x', 'after'],
    ['after=', 'after'],
    ['after=1&after=2', 'after'],
    ['limit=0', 'limit'],
    [`limit=${TRACKER_MAX_EVENTS + 1}`, 'limit'],
    ['limit=1e3', 'limit'],
  ])('refuses %s with 400 and a reason', async (query, name) => {
    const response = await api(storeWith('ed', 2)).handle(
      get(`/conversations/ed/tracker?${query}`),
    );

    expect(response.status).toBe(400);
    expect((response.body as { error: string }).error).toContain(`${name} must be`);
  });

  it('takes the smallest and largest after and limit, and numbers of several digits', async () => {
    const http = api(storeWith('gi', 30));
    const page = async (query: string) =>
      texts((await http.handle(get(`/conversations/gi/tracker?${query}`))).body);

    expect(await page('after=0&limit=1')).toEqual(['m1']);
    expect(await page('after=12&limit=2')).toEqual(['m13', 'm14']);
    expect(await page(`limit=${TRACKER_MAX_EVENTS}`)).toHaveLength(30);
    expect(await page('after=0')).toHaveLength(29);
    expect(await page('limit=3&other=ignored')).toEqual(['m0', 'm1', 'm2']);
  });

  it('does not flag an answer whose limit is exactly the number of events', async () => {
    const view = await readTracker(storeWith('ha', 2, 2), 'ha', { limit: 4 });

    expect(view.events).toHaveLength(4);
    expect(view.truncated).toBeUndefined();
  });

  it('shows an event both logged and still in the outbox once', async () => {
    const store = storeWith('io', 3);
    const head = await store.load('io');
    if (!head) throw new Error('no head');
    const outbox: Outbox = {
      job_id: 'j',
      turn_id: 't',
      channel: 'rest',
      version: 2,
      events: [userEvent(2), userEvent(3)],
      messages: [],
      settled: true,
      settle_turns: [],
      jobs: [],
    };
    const overlapping: ConversationStore = {
      ...store,
      load: async () => ({ ...head, outbox, nextSeq: 4 }),
    };

    const view = await readTracker(overlapping, 'io');

    expect(view.events.map((e) => (e as { text: string }).text)).toEqual(['m0', 'm1', 'm2', 'm3']);
  });

  it('shows an unknown conversation as empty', async () => {
    const response = await api(storeWith('fa', 2)).handle(
      get('/conversations/nobody/tracker?limit=5'),
    );

    expect(response.body).toEqual(emptyTrackerState('nobody'));
  });
});
