import { describe, expect, it } from 'vitest';
import { historyMessages } from '../../../src/agents/history.js';
import type { AgentInput } from '../../../src/assistant/index.js';

type Event = Record<string, unknown>;

const user = (text: unknown, metadata?: Record<string, unknown>): Event => ({
  event: 'user',
  text,
  ...(metadata ? { metadata } : {}),
});
const bot = (text: unknown, utterAction?: string): Event => ({
  event: 'bot',
  text,
  ...(utterAction ? { metadata: { utter_action: utterAction } } : {}),
});
const started = (agentId: string): Event => ({ event: 'agent_started', agent_id: agentId });

function input(userMessage: string, events: readonly Event[]): AgentInput {
  return {
    id: 'run-1',
    userMessage,
    slots: [],
    conversationHistory: '',
    events: [...events],
    metadata: {},
  };
}

const FRESH = { restarted: false, resumed: false } as const;
const RESUMED = { restarted: false, resumed: true } as const;
const RESTARTED = { restarted: true, resumed: false } as const;

describe('historyMessages', () => {
  it('gives the conversation oldest first, with the message being answered last', () => {
    const history = historyMessages(
      input('A test drive, please.', [user('Hi'), bot('Hello! How can I help?')]),
      'booker',
      FRESH,
    );

    expect(history).toEqual([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello! How can I help?' },
      { role: 'user', content: 'A test drive, please.' },
    ]);
  });

  it('moves the logged message being answered to the end and leaves out later user messages', () => {
    const history = historyMessages(
      input('A test drive, please.', [
        user('Hi'),
        bot('Hello! How can I help?'),
        user('A test drive, please.'),
        bot('Let me check.'),
        user('Also, what colors are there?'),
      ]),
      'booker',
      FRESH,
    );

    expect(history).toEqual([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello! How can I help?' },
      { role: 'assistant', content: 'Let me check.' },
      { role: 'user', content: 'A test drive, please.' },
    ]);
  });

  it('moves the message being answered to the end when it is the first event', () => {
    const history = historyMessages(
      input('A test drive, please.', [user('A test drive, please.'), bot('Sure.')]),
      'booker',
      FRESH,
    );

    expect(history).toEqual([
      { role: 'assistant', content: 'Sure.' },
      { role: 'user', content: 'A test drive, please.' },
    ]);
  });

  it('takes a clipped logged text for the message it begins', () => {
    const message = 'I would like to book a test drive of the Aurora EV next Tuesday morning';
    const history = historyMessages(
      input(message, [user('Hi'), user('I would like to book a test drive of the Aurora…')]),
      'booker',
      FRESH,
    );

    expect(history).toEqual([
      { role: 'user', content: 'Hi' },
      { role: 'user', content: message },
    ]);
  });

  it('keeps an earlier message that only begins like the one being answered', () => {
    const history = historyMessages(
      input('Yes please, the one in Berlin', [
        user('Yes'),
        bot('Which dealer?'),
        user('You said the Berlin dealer closes early on Saturdays, so…'),
        bot('Noted.'),
      ]),
      'booker',
      FRESH,
    );

    expect(history).toEqual([
      { role: 'user', content: 'Yes' },
      { role: 'assistant', content: 'Which dealer?' },
      { role: 'user', content: 'You said the Berlin dealer closes early on Saturdays, so…' },
      { role: 'assistant', content: 'Noted.' },
      { role: 'user', content: 'Yes please, the one in Berlin' },
    ]);
  });

  it('keeps the whole conversation when there is no message to answer', () => {
    const history = historyMessages(
      input('', [user(''), user('Hi'), bot('Hello!')]),
      'booker',
      FRESH,
    );

    expect(history).toEqual([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello!' },
    ]);
  });

  it('skips user events without text', () => {
    const history = historyMessages(
      input('Book it.', [user(null), user('Hi'), bot('Hello!')]),
      'booker',
      FRESH,
    );

    expect(history).toEqual([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello!' },
      { role: 'user', content: 'Book it.' },
    ]);
  });

  it('leaves out the acknowledgement that an agent is still working and all but user and bot texts', () => {
    const history = historyMessages(
      input('Book it.', [
        user('Hi', { utter_action: 'utter_external_agent_processing' }),
        bot('Still working on it…', 'utter_external_agent_processing'),
        { event: 'action', name: 'action_listen' },
        bot(null),
        user({ intent: 'greet' }),
        { event: 'agent_started', agent_id: 'booker', text: 'Started booker.' },
        bot('Hello!', 'utter_greet'),
      ]),
      'booker',
      FRESH,
    );

    expect(history).toEqual([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello!' },
      { role: 'user', content: 'Book it.' },
    ]);
  });

  it('does not show a resumed agent the message that resumed it', () => {
    const history = historyMessages(
      input('Back to the booking.', [
        user('Book a test drive.'),
        bot('Which dealer?'),
        user('Back to the booking.'),
        bot('Resuming.'),
      ]),
      'booker',
      RESUMED,
    );

    expect(history).toEqual([
      { role: 'user', content: 'Book a test drive.' },
      { role: 'assistant', content: 'Which dealer?' },
      { role: 'assistant', content: 'Resuming.' },
      { role: 'user', content: 'Back to the booking.' },
    ]);
  });

  it('does not show a resumed agent the message that resumed it when it is the first event', () => {
    const history = historyMessages(
      input('Continue.', [user('Carry on with the booking.'), bot('Resuming.')]),
      'booker',
      RESUMED,
    );

    expect(history).toEqual([
      { role: 'assistant', content: 'Resuming.' },
      { role: 'user', content: 'Continue.' },
    ]);
  });

  it('fences off what was said in the previous run of a restarted agent', () => {
    const history = historyMessages(
      input('Start over.', [
        user('Hi'),
        bot('Hello!'),
        { event: 'agent_started', agent_id: 'concierge' },
        started('booker'),
        user('The Berlin dealer.'),
        bot('Which time?'),
        { event: 'agent_completed', agent_id: 'booker' },
        started('concierge'),
        bot('Anything else?'),
        user('Start over.'),
      ]),
      'booker',
      RESTARTED,
    );

    expect(history).toEqual([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello!' },
      { role: 'system', content: 'Previous run (completed).' },
      { role: 'user', content: 'The Berlin dealer.' },
      { role: 'assistant', content: 'Which time?' },
      { role: 'assistant', content: 'Anything else?' },
      { role: 'system', content: 'End of the previous run; the current run starts here.' },
      { role: 'user', content: 'Start over.' },
    ]);
  });

  it('fences off the previous run when it started with the first event', () => {
    const history = historyMessages(
      input('Start over.', [started('booker'), user('The Berlin dealer.'), bot('Which time?')]),
      'booker',
      RESTARTED,
    );

    expect(history).toEqual([
      { role: 'system', content: 'Previous run (completed).' },
      { role: 'user', content: 'The Berlin dealer.' },
      { role: 'assistant', content: 'Which time?' },
      { role: 'system', content: 'End of the previous run; the current run starts here.' },
      { role: 'user', content: 'Start over.' },
    ]);
  });

  it('adds no fence when nothing was said in the previous run', () => {
    const history = historyMessages(
      input('Start over.', [
        user('Hi'),
        started('booker'),
        { event: 'action', name: 'action_listen' },
      ]),
      'booker',
      RESTARTED,
    );

    expect(history).toEqual([
      { role: 'user', content: 'Hi' },
      { role: 'user', content: 'Start over.' },
    ]);
  });

  it('adds no fence when the previous run is not among the events', () => {
    const history = historyMessages(
      input('Start over.', [user('Hi'), started('concierge'), bot('Hello!')]),
      'booker',
      RESTARTED,
    );

    expect(history).toEqual([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello!' },
      { role: 'user', content: 'Start over.' },
    ]);
  });
});
