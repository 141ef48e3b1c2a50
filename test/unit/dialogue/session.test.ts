import { describe, expect, it } from 'vitest';
import { DialogueEngine } from '../../../src/dialogue/index.js';
import { assistantFrom, Conversation, type TestPorts, testPorts } from '../../helpers/dialogue.js';
import { BASE_PROJECT } from '../../helpers/project.js';

const MINUTE = 60_000;

/** Ports whose clock ticks a second per reading and jumps when told to. */
function clockedPorts(): TestPorts & { advance(ms: number): void } {
  let clock = Date.UTC(2026, 0, 1);
  return {
    ...testPorts(),
    now: () => (clock += 1000),
    advance: (ms) => {
      clock += ms;
    },
  };
}

/** A conversation on the base project with the domain's `session_config` set to `config`. */
async function conversationWith(config: string) {
  const ports = clockedPorts();
  const files = {
    ...BASE_PROJECT,
    'domain.yml': `${config}${BASE_PROJECT['domain.yml']}`,
  };
  const c = new Conversation(new DialogueEngine(await assistantFrom(files)), ports);
  return { c, ports };
}

/** Sets `confirmed` outside any flow, then starts greet, which asks for the name. */
async function midFlow(c: Conversation): Promise<void> {
  c.ports.llm.reply('set slot confirmed true');
  await c.say('I confirm');
  c.ports.llm.reply('start flow greet');
  expect(await c.say('hi')).toEqual(['What is your name?']);
}

const turnEvents = (c: Conversation) =>
  (c.last?.events ?? []).map((e) =>
    'flow_id' in e ? `${e.event}:${e.flow_id}` : 'name' in e ? `${e.event}:${e.name}` : e.event,
  );

describe('conversation sessions', () => {
  it('starts a new session after the expiration time: stack ended, slots reset, pattern run', async () => {
    const { c, ports } = await conversationWith(
      'session_config:\n  session_expiration_time: 5\n  carry_over_slots_to_new_session: false\n',
    );
    await midFlow(c);

    ports.advance(6 * MINUTE);
    c.ports.llm.reply('offtopic reply');
    await c.say('hello again');

    expect(turnEvents(c).slice(0, 5)).toEqual([
      'stack',
      'flow_cancelled:greet',
      'session_started',
      'slot:confirmed',
      'user',
    ]);
    expect(turnEvents(c)).toContain('flow_started:pattern_session_start');
    expect(c.state.slots.confirmed).toBeNull();
    expect(c.state.stack).toEqual([]);
    // The command generator sees the new session only.
    expect(c.ports.llm.prompts.at(-1)).toContain('hello again');
    expect(c.ports.llm.prompts.at(-1)).not.toContain('I confirm');
  });

  it('carries the slots over by default, after an hour without a message', async () => {
    const { c, ports } = await conversationWith('');
    await midFlow(c);

    ports.advance(61 * MINUTE);
    c.ports.llm.reply('offtopic reply');
    await c.say('back again');

    expect(turnEvents(c)).toContain('session_started');
    expect(turnEvents(c)).toContain('flow_started:pattern_session_start');
    expect(c.state.slots.confirmed).toBe(true);
    expect(c.state.stack).toEqual([]);
  });

  it('keeps the session, and the flow in progress, within the expiration time', async () => {
    const { c, ports } = await conversationWith('');
    await midFlow(c);

    ports.advance(59 * MINUTE);
    c.ports.llm.reply('set slot name Ada');
    expect(await c.say('Ada')).toEqual(['Done, Ada.', 'Can I help you with anything else?']);

    expect(turnEvents(c)).not.toContain('session_started');
    expect(turnEvents(c)).not.toContain('flow_started:pattern_session_start');
  });

  it('never expires a session whose expiration time is 0', async () => {
    const { c, ports } = await conversationWith('session_config:\n  session_expiration_time: 0\n');
    await midFlow(c);

    ports.advance(30 * 24 * 60 * MINUTE);
    c.ports.llm.reply('set slot name Ada');
    expect(await c.say('Ada')).toEqual(['Done, Ada.', 'Can I help you with anything else?']);
    expect(turnEvents(c)).not.toContain('session_started');
  });

  it('starts no session after expiry when start_session_after_expiry is false', async () => {
    const { c, ports } = await conversationWith(
      'session_config:\n  session_expiration_time: 5\n  start_session_after_expiry: false\n',
    );
    await midFlow(c);

    ports.advance(6 * MINUTE);
    c.ports.llm.reply('set slot name Ada');
    expect(await c.say('Ada')).toEqual(['Done, Ada.', 'Can I help you with anything else?']);
  });

  it('starts the first session once, before the first message, even when it asks for one', async () => {
    const { c } = await conversationWith('');
    c.ports.llm.reply('offtopic reply');
    await c.say('hi');
    expect(turnEvents(c).slice(0, 2)).toEqual(['session_started', 'user']);
    expect(turnEvents(c).filter((e) => e === 'session_started')).toHaveLength(1);

    const { c: d } = await conversationWith('');
    await d.say('/session_start');
    expect(turnEvents(d).filter((e) => e === 'session_started')).toHaveLength(1);
    expect(turnEvents(d).filter((e) => e === 'flow_started:pattern_session_start')).toHaveLength(1);
  });
});
