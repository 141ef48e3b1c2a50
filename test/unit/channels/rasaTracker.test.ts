import { describe, expect, it } from 'vitest';
import { rasaTrackerState } from '../../../src/channels/rasaTracker.js';
import { readTracker } from '../../../src/channels/tracker.js';
import {
  type ConversationState,
  type DialogueEvent,
  initialState,
  replay,
} from '../../../src/dialogue/index.js';
import type {
  ConversationHead,
  ConversationStore,
  EventRange,
} from '../../../src/runtime/ports.js';
import { type Conversation, newConversation } from '../../helpers/dialogue.js';
import { BASE_PROJECT } from '../../helpers/project.js';

const PROJECT = {
  ...BASE_PROJECT,
  'domain.yml': `${BASE_PROJECT['domain.yml']}intents:\n  - greet\n`,
  'data/flows.yml': `flows:
  greet:
    description: Greet the user.
    nlu_trigger:
      - intent: greet
    steps:
      - collect: name
      - action: utter_done
`,
};

/** A store holding one conversation's head and its whole log; it records the ranges read. */
function storeOf(senderId: string, state: ConversationState, log: readonly DialogueEvent[]) {
  const reads: EventRange[] = [];
  const sequenced = log.map((event, seq) => ({ seq, event }));
  const head: ConversationHead = {
    version: 1,
    state,
    outbox: undefined,
    recentJobs: [],
    nextSeq: log.length,
    runs: {},
    channel: 'rest',
  };
  const unused = () => Promise.reject(new Error('not used by the tracker'));
  const store: ConversationStore = {
    load: async (id) => (id === senderId ? head : undefined),
    readEvents: async () => sequenced,
    readEventPage: async (_id, range) => {
      reads.push(range);
      const after = sequenced.filter((e) => e.seq > (range.after ?? -1));
      const limit = range.limit ?? after.length;
      return { events: after.slice(0, limit), more: after.length > limit };
    },
    commit: unused,
    appendEvents: unused,
    clearOutbox: unused,
    loadRun: unused,
  };
  return { store, reads };
}

const trackerOf = (c: Conversation, page = {}) =>
  readTracker(storeOf('tester', c.state, c.events).store, 'tester', page);

type Json = Record<string, unknown>;
const eventsNamed = (events: readonly Json[], name: string) =>
  events.filter((e) => e.event === name);

describe("the tracker in Rasa's shape", () => {
  it('shows the latest message, the stack and the latest action as Rasa does', async () => {
    const c = await newConversation(PROJECT);
    c.ports.llm.reply('start flow greet');
    await c.say('hello there');

    const tracker = await trackerOf(c);

    expect(tracker).toMatchObject({
      sender_id: 'tester',
      slots: { name: null },
      latest_message: {
        text: 'hello there',
        intent: { name: null, confidence: 0 },
        entities: [],
        intent_ranking: [],
        commands: [{ command: 'start flow', flow: 'greet' }],
        message_id: null,
        metadata: {},
      },
      latest_event_time: c.events.at(-1)?.timestamp,
      followup_action: null,
      paused: false,
      latest_input_channel: 'rest',
      active_loop: {},
      latest_action: { action_name: 'action_listen' },
      latest_action_name: 'action_listen',
    });
    expect(tracker.stack).toEqual([
      {
        type: 'flow',
        frame_id: expect.any(String),
        flow_id: 'greet',
        step_id: expect.any(String),
        frame_type: 'regular',
      },
    ]);
  });

  it("writes each event in Rasa's event JSON with its timestamp, keeping Switchboard's fields", async () => {
    const c = await newConversation(PROJECT);
    c.ports.llm.reply('start flow greet');
    await c.say('hello there');
    c.ports.llm.reply('set slot name Ada');
    await c.say('Ada');

    const { events, stack } = await trackerOf(c);

    expect(events.every((e) => typeof e.timestamp === 'number')).toBe(true);
    expect(eventsNamed(events, 'user')[0]).toMatchObject({
      event: 'user',
      text: 'hello there',
      parse_data: { text: 'hello there', commands: [{ command: 'start flow', flow: 'greet' }] },
      input_channel: 'rest',
      message_id: null,
      metadata: {},
      commands: [{ command: 'start flow', flow: 'greet' }],
    });
    const asked = eventsNamed(events, 'bot')[0];
    expect(asked).toMatchObject({
      text: 'What is your name?',
      data: { buttons: null, image: null, custom: null },
      metadata: { utter_action: 'utter_ask_name' },
    });
    const started = eventsNamed(events, 'flow_started').find((e) => e.flow_id === 'greet');
    expect(started).toEqual({
      event: 'flow_started',
      timestamp: expect.any(Number),
      flow_id: 'greet',
    });
    expect(eventsNamed(events, 'flow_completed')).toContainEqual({
      event: 'flow_completed',
      timestamp: expect.any(Number),
      flow_id: 'greet',
      step_id: expect.any(String),
    });
    expect(eventsNamed(events, 'slot')).toContainEqual({
      event: 'slot',
      timestamp: expect.any(Number),
      name: 'name',
      value: 'Ada',
    });
    // A stack event's update replaces the whole stack, in Rasa's frames; the last one leaves it.
    const stacks = eventsNamed(events, 'stack');
    const last = stacks.at(-1) as { update: string; stack: unknown[] };
    expect(JSON.parse(last.update)).toEqual([{ op: 'replace', path: '', value: stack }]);
    expect(last.stack).toEqual(c.state.stack);
  });

  it('shows the latest message whole when the page leaves it out, reading only that event', async () => {
    const c = await newConversation(PROJECT);
    c.ports.llm.reply('offtopic reply');
    await c.say('hi');
    c.ports.llm.reply('offtopic reply');
    const long = 'x'.repeat(3000);
    c.last = await c.engine.handleMessage(
      c.state,
      { text: long, metadata: { page: 'faq' } },
      c.ports,
    );
    c.state = c.last.state;
    c.events.push(...c.last.events);
    const { store, reads } = storeOf('tester', c.state, c.events);

    const tracker = await readTracker(store, 'tester', { after: c.events.length - 1 });

    expect(tracker.events).toEqual([]);
    expect(tracker.latest_message).toMatchObject({ text: long, metadata: { page: 'faq' } });
    const index = c.state.latest_message?.index ?? -1;
    expect(reads).toEqual([
      { after: c.events.length - 1, limit: 2000 },
      { after: index - 1, limit: 1 },
    ]);
  });

  it('names the intent of a /intent message that started a flow, and none of /SetSlots', async () => {
    const c = await newConversation(PROJECT);
    await c.say('/greet');
    expect((await trackerOf(c)).latest_message).toMatchObject({
      text: '/greet',
      intent: { name: 'greet', confidence: 1 },
      intent_ranking: [{ name: 'greet', confidence: 1 }],
    });

    await c.say('/SetSlots(name=Ada)');
    expect((await trackerOf(c)).latest_message).toMatchObject({ intent: { name: null } });
  });

  it('names the latest action or response while a sub agent still works', () => {
    const events: DialogueEvent[] = [
      { event: 'user', text: 'find a car', timestamp: 1 },
      { event: 'action', name: 'action_check_stock', timestamp: 2 },
      { event: 'bot', text: 'Looking…', metadata: { utter_action: 'utter_wait' }, timestamp: 3 },
    ];
    const base = replay(initialState('ada', {}), events);
    const working: ConversationState = {
      ...base,
      stack: [
        {
          type: 'agent',
          frame_id: 'f1',
          agent_id: 'finder',
          flow_id: 'find',
          step_id: 'call',
          status: 'working',
          run_id: 'run-1',
        },
      ],
    };
    const source = { senderId: 'ada', channel: 'rest', events, latestMessage: undefined };

    expect(rasaTrackerState({ ...source, state: working })).toMatchObject({
      latest_action: { action_name: 'utter_wait' },
      latest_action_name: 'utter_wait',
    });
    expect(rasaTrackerState({ ...source, state: base }).latest_action_name).toBe('action_listen');
  });

  it('shows no message and no action for a conversation the user never wrote in', () => {
    const state = replay(initialState('ada', { plan: null }), [
      { event: 'slot', name: 'plan', value: 'gold', timestamp: 5 },
    ]);

    const tracker = rasaTrackerState({
      senderId: 'ada',
      state,
      channel: 'rest',
      events: [],
      latestMessage: undefined,
    });

    expect(tracker).toMatchObject({
      slots: { plan: 'gold' },
      latest_message: { intent: {}, entities: [], text: null, message_id: null, metadata: {} },
      latest_event_time: 5,
      latest_input_channel: null,
      latest_action: {},
      latest_action_name: null,
    });
  });

  it('takes the latest message of a state written before it was kept from its recent events', async () => {
    const log: DialogueEvent[] = [
      { event: 'user', text: 'hello', timestamp: 1 },
      { event: 'bot', text: 'Hi!', timestamp: 2 },
    ];
    const {
      latest_message: _m,
      latest_event_time: _t,
      ...old
    } = replay(initialState('ada', {}), log);

    const tracker = await readTracker(storeOf('ada', old, log).store, 'ada');

    expect(tracker).toMatchObject({
      latest_message: { text: 'hello' },
      latest_event_time: 2,
      latest_action_name: 'action_listen',
    });
  });
});
