import { describe, expect, it } from 'vitest';
import { webChatChannel } from '../../../src/channels/webChat.js';
import type { DialogueEvent } from '../../../src/dialogue/index.js';
import {
  type ConversationStore,
  createHttpApi,
  type HttpResponse,
  type Job,
} from '../../../src/runtime/index.js';
import { recordingContext } from '../../helpers/channelContext.js';

type Logged = { seq: number; event: DialogueEvent };

const bot = (seq: number, text: string): Logged => ({
  seq,
  event: { event: 'bot', text, timestamp: seq },
});

/** A store holding a conversation's logged events and, optionally, an outbox's not logged yet. */
function storeWith(logged: Logged[], pending: Logged[] = []): ConversationStore {
  return {
    load: async () =>
      ({
        nextSeq: logged.length + pending.length,
        outbox: pending.length > 0 ? { events: pending } : undefined,
      }) as never,
    readEventPage: async (_id: string, range: { after?: number; limit?: number }) => {
      const events = logged.filter((e) => e.seq > (range.after ?? -1));
      return { events: events.slice(0, range.limit), more: events.length > (range.limit ?? 0) };
    },
  } as unknown as ConversationStore;
}

/** Reads a stream to its end on a clock that moves `stepMs` at each sleep. */
async function streamed(
  store: ConversationStore,
  headers: Record<string, string>,
  options: { limitMs: number; stepMs: number },
): Promise<{ response: HttpResponse; text: string }> {
  let clock = 0;
  const queued: Job[] = [];
  const context = {
    ...recordingContext(queued),
    now: () => clock,
    sleep: async (ms: number) => {
      clock += Math.max(ms, options.stepMs);
    },
  };
  const api = createHttpApi([webChatChannel(context, { store, streamLimitMs: options.limitMs })]);
  const response = await api.handle({
    method: 'GET',
    path: '/webhooks/socketio/stream/browser-1',
    headers,
  });
  let text = '';
  for await (const chunk of response.stream ?? []) text += chunk;
  return { response, text };
}

const ids = (text: string) => [...text.matchAll(/\nid: (\d+)\n/g)].map((m) => Number(m[1]));

describe('the web chat stream', () => {
  it('sends every bot message after the event named, past a page of the log, then the outbox', async () => {
    const logged = Array.from({ length: 250 }, (_, i) =>
      i % 5 === 0
        ? bot(i, `message ${i}`)
        : { seq: i, event: { event: 'action', name: 'x', timestamp: i } as DialogueEvent },
    );
    const store = storeWith(logged, [bot(250, 'not logged yet')]);
    const { response, text } = await streamed(
      store,
      { 'last-event-id': '9' },
      { limitMs: 1000, stepMs: 400 },
    );
    expect(response.status).toBe(200);
    const expected = [
      ...logged.filter((e) => e.event.event === 'bot' && e.seq > 9).map((e) => e.seq),
      250,
    ];
    expect(ids(text)).toEqual(expected);
    expect(text).toContain('"message":{"text":"not logged yet"}');
    expect(text.startsWith(': following\n\n')).toBe(true);
  });

  it('begins with what is said from then on, keeps a quiet stream alive, and ends at its limit', async () => {
    const store = storeWith([bot(0, 'said before')]);
    const { text } = await streamed(store, {}, { limitMs: 40_000, stepMs: 5_000 });
    expect(ids(text)).toEqual([]);
    expect(text.match(/: keep-alive\n\n/g)?.length).toBeGreaterThanOrEqual(2);
  });

  it('takes ?after= as Last-Event-ID, and refuses an id that is no event', async () => {
    const store = storeWith([bot(0, 'one'), bot(1, 'two')]);
    let clock = 0;
    const context = {
      ...recordingContext([]),
      now: () => clock,
      sleep: async () => {
        clock += 500;
      },
    };
    const api = createHttpApi([webChatChannel(context, { store, streamLimitMs: 1000 })]);
    const after = await api.handle({
      method: 'GET',
      path: '/webhooks/socketio/stream/browser-1?after=0',
      headers: {},
    });
    let text = '';
    for await (const chunk of after.stream ?? []) text += chunk;
    expect(ids(text)).toEqual([1]);
    for (const bad of ['x', '1.5', '-2']) {
      const refused = await api.handle({
        method: 'GET',
        path: '/webhooks/socketio/stream/browser-1',
        headers: { 'last-event-id': bad },
      });
      expect(refused.status).toBe(400);
    }
  });
});
