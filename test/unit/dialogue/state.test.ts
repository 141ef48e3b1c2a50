import { describe, expect, it } from 'vitest';
import type { DialogueEvent } from '../../../src/dialogue/events.js';
import type { FlowFrame } from '../../../src/dialogue/frames.js';
import {
  applyEvent,
  HISTORY_LIMIT,
  initialState,
  latestMessageTime,
  parseState,
  RECENT_EVENTS_LIMIT,
  REPEAT_TEXT_LIMIT,
  replay,
  UnsupportedStateVersionError,
  WINDOW_TEXT_LIMIT,
} from '../../../src/dialogue/state.js';
import { newConversation } from '../../helpers/dialogue.js';
import { BASE_PROJECT } from '../../helpers/project.js';

const flowFrame = (frameId: string): FlowFrame => ({
  type: 'flow',
  frame_id: frameId,
  flow_id: 'greet',
  step_id: 'START',
  frame_type: 'regular',
});

describe('conversation state', () => {
  it('starts with a copy of the initial slot values', () => {
    const slots = { plan: 'basic' };
    const state = initialState('tester', slots);
    expect(state.slots).toEqual({ plan: 'basic' });
    expect(state.slots).not.toBe(slots);
  });

  it('is the fold of its events', async () => {
    const c = await newConversation(BASE_PROJECT);
    c.ports.llm.reply('start flow greet', 'set slot name Ada');
    await c.say('hi');
    await c.say('Ada');
    const rebuilt = replay(initialState('tester', c.engine.start('tester').slots), c.events);
    expect(rebuilt).toEqual(c.state);
  });

  it('survives serialization', async () => {
    const c = await newConversation(BASE_PROJECT);
    c.ports.llm.reply('start flow greet');
    await c.say('hi');
    expect(parseState(JSON.parse(JSON.stringify(c.state)))).toEqual(c.state);
  });

  it('refuses a state of an unknown version', () => {
    const state = { ...initialState('x', {}), version: 99 };
    expect(() => parseState(state)).toThrow(UnsupportedStateVersionError);
    expect(() => parseState(state)).toThrow(/version 99 is not supported/);
    expect(() => parseState(state)).toThrow(
      expect.objectContaining({ name: 'UnsupportedStateVersionError', found: 99 }),
    );
  });

  it('keeps where and when the user last wrote, and when the latest event happened', () => {
    const state = replay(initialState('tester', {}), [
      { event: 'slot', name: 'plan', value: 'basic', timestamp: 10 },
      { event: 'user', text: 'hi', timestamp: 11 },
      { event: 'bot', text: 'Hello!', timestamp: 12 },
      { event: 'stack', stack: [], timestamp: 13 },
    ]);
    expect(state.latest_message).toEqual({ index: 1, timestamp: 11 });
    expect(state.latest_event_time).toBe(13);
    expect(latestMessageTime(state)).toBe(11);
  });

  it('loads a state written before it kept the latest message, finding it in its recent events', () => {
    const written = replay(initialState('tester', {}), [
      { event: 'user', text: 'hi', timestamp: 11 },
      { event: 'bot', text: 'Hello!', timestamp: 12 },
    ]);
    const { latest_message: _m, latest_event_time: _t, ...old } = written;

    const loaded = parseState(JSON.parse(JSON.stringify(old)));

    expect(loaded).toEqual(old);
    expect(latestMessageTime(loaded)).toBe(11);
    expect(latestMessageTime(initialState('tester', {}))).toBeUndefined();
  });

  it('numbers new frames after the highest frame the stack has held', () => {
    const stack = (...ids: string[]): DialogueEvent => ({
      event: 'stack',
      stack: ids.map(flowFrame),
      timestamp: 1,
    });
    const state = replay(initialState('tester', {}), [stack('f5', 'f2'), stack('f3')]);
    expect(state.frame_seq).toBe(5);
  });

  it('keeps the sub agents each flow started and those completed until a new session', () => {
    const agent = (
      event: 'agent_started' | 'agent_completed',
      agentId: string,
      flowId: string,
    ): DialogueEvent => ({ event, agent_id: agentId, flow_id: flowId, timestamp: 1 });
    const state = replay(initialState('tester', {}), [
      agent('agent_started', 'cars', 'buy'),
      agent('agent_completed', 'cars', 'buy'),
      agent('agent_started', 'loans', 'buy'),
      agent('agent_started', 'cars', 'buy'),
      agent('agent_started', 'cars', 'sell'),
      agent('agent_completed', 'loans', 'buy'),
      agent('agent_completed', 'cars', 'sell'),
    ]);
    expect(state.agents).toEqual({
      started: [
        { agent_id: 'cars', flow_id: 'buy' },
        { agent_id: 'loans', flow_id: 'buy' },
        { agent_id: 'cars', flow_id: 'sell' },
      ],
      completed: ['cars', 'loans'],
    });
    const next = applyEvent(state, { event: 'session_started', timestamp: 2 });
    expect(next.agents).toBeUndefined();
  });

  it('keeps stack changes out of the recent events', async () => {
    const c = await newConversation(BASE_PROJECT);
    c.ports.llm.reply('start flow greet');
    await c.say('hi');
    expect(c.events.some((e) => e.event === 'stack')).toBe(true);
    expect(c.state.recent_events.map((e) => e.event)).not.toContain('stack');
  });

  it('keeps a bot message without text in the windows, but not in the history', () => {
    const buttons: DialogueEvent = {
      event: 'bot',
      buttons: [{ title: 'Yes', payload: '/SetSlots(confirmed=true)' }],
      timestamp: 1,
    };
    const state = applyEvent(initialState('tester', {}), buttons);
    expect(state.history).toEqual([]);
    expect(state.last_bot_events).toEqual([buttons]);
    expect(state.recent_events).toEqual([buttons]);
  });

  it('clips a long bot message in its windows, and less for repeating it', () => {
    const text = 'x'.repeat(REPEAT_TEXT_LIMIT + 10);
    const state = applyEvent(initialState('tester', {}), { event: 'bot', text, timestamp: 1 });
    const clipped = `${'x'.repeat(WINDOW_TEXT_LIMIT)}…`;
    expect(state.history).toEqual([{ role: 'bot', text: clipped }]);
    expect(state.recent_events).toEqual([{ event: 'bot', text: clipped, timestamp: 1 }]);
    expect(state.last_bot_events).toEqual([
      { event: 'bot', text: `${'x'.repeat(REPEAT_TEXT_LIMIT)}…`, timestamp: 1 },
    ]);
  });

  it('keeps a message of exactly the window limit whole', () => {
    const text = 'y'.repeat(WINDOW_TEXT_LIMIT);
    const state = applyEvent(initialState('tester', {}), { event: 'user', text, timestamp: 1 });
    expect(state.history).toEqual([{ role: 'user', text }]);
  });

  it('keeps only clipped texts and no channel metadata in its windows', async () => {
    const c = await newConversation(BASE_PROJECT);
    // The first message starts the session, whose slot keeps its metadata, as Rasa's does.
    c.ports.llm.reply('offtopic reply');
    await c.say('hello');
    c.ports.llm.reply('offtopic reply');
    const long = 'x'.repeat(5000);
    const result = await c.engine.handleMessage(
      c.state,
      { text: long, metadata: { blob: 'y'.repeat(8000) } },
      c.ports,
    );
    const user = result.state.recent_events.findLast((e) => e.event === 'user');
    expect(user).toMatchObject({ text: `${'x'.repeat(1000)}…` });
    expect(user && 'metadata' in user).toBe(false);
    expect(result.state.history.at(-2)?.text).toHaveLength(1001);
    expect(result.events.find((e) => e.event === 'user')).toMatchObject({
      text: long,
      metadata: { blob: 'y'.repeat(8000) },
    });
    expect(Buffer.byteLength(JSON.stringify(result.state))).toBeLessThan(8000);
  });

  it('keeps bounded history however long the conversation runs', async () => {
    const c = await newConversation(BASE_PROJECT);
    for (let i = 0; i < 40; i++) c.ports.llm.reply('offtopic reply');
    for (let i = 0; i < 40; i++) await c.say(`message ${i}`);
    expect(c.state.history).toHaveLength(HISTORY_LIMIT);
    expect(c.state.recent_events).toHaveLength(RECENT_EVENTS_LIMIT);
    expect(c.state.history.at(-2)).toEqual({ role: 'user', text: 'message 39' });
    expect(c.state.event_count).toBe(c.events.length);
  });
});
