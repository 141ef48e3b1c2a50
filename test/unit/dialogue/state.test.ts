import { describe, expect, it } from 'vitest';
import {
  HISTORY_LIMIT,
  initialState,
  parseState,
  RECENT_EVENTS_LIMIT,
  replay,
  UnsupportedStateVersionError,
} from '../../../src/dialogue/state.js';
import { newConversation } from '../../helpers/dialogue.js';
import { BASE_PROJECT } from '../../helpers/project.js';

describe('conversation state', () => {
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
  });

  it('keeps only clipped texts and no channel metadata in its windows', async () => {
    const c = await newConversation(BASE_PROJECT);
    c.ports.llm.reply('offtopic reply');
    const long = 'x'.repeat(5000);
    const result = await c.engine.handleMessage(
      c.state,
      { text: long, metadata: { blob: 'y'.repeat(8000) } },
      c.ports,
    );
    const user = result.state.recent_events.find((e) => e.event === 'user');
    expect(user).toMatchObject({ text: `${'x'.repeat(1000)}…` });
    expect(user && 'metadata' in user).toBe(false);
    expect(result.state.history[0]?.text).toHaveLength(1001);
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
