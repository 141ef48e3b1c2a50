import { describe, expect, it } from 'vitest';
import { parseData, rasaEvent } from '../../../src/actionServer/index.js';
import type { DialogueEvent } from '../../../src/dialogue/index.js';

const CONTEXT = { intents: new Set(['greet', 'ask.v2-x']), channel: 'rest' };

describe('a conversation event in Rasa’s form', () => {
  it('gives a user message without commands an empty command list', () => {
    expect(rasaEvent({ event: 'user', text: 'hello', timestamp: 1 }, CONTEXT)).toStrictEqual({
      event: 'user',
      timestamp: 1,
      text: 'hello',
      parse_data: {
        text: 'hello',
        intent: { name: null, confidence: 0 },
        entities: [],
        intent_ranking: [],
        commands: [],
        message_id: null,
        metadata: {},
      },
      input_channel: 'rest',
      message_id: null,
      metadata: {},
    });
  });

  it('shows a bot image also as its attachment', () => {
    expect(
      rasaEvent({ event: 'bot', text: 'Look', image: 'https://x/a.png', timestamp: 2 }, CONTEXT),
    ).toStrictEqual({
      event: 'bot',
      timestamp: 2,
      text: 'Look',
      data: {
        elements: null,
        quick_replies: null,
        buttons: null,
        attachment: 'https://x/a.png',
        image: 'https://x/a.png',
        custom: null,
      },
      metadata: {},
    });
  });

  it('shows an action as run by no policy, with full confidence and not hidden', () => {
    expect(
      rasaEvent({ event: 'action', name: 'action_check', timestamp: 3 }, CONTEXT),
    ).toStrictEqual({
      event: 'action',
      timestamp: 3,
      name: 'action_check',
      policy: null,
      confidence: 1,
      action_text: null,
      hide_rule_turn: false,
    });
  });

  it('leaves a stack event out', () => {
    expect(rasaEvent({ event: 'stack', stack: [], timestamp: 4 }, CONTEXT)).toBeUndefined();
  });

  it('shows a new session by its name and time', () => {
    expect(rasaEvent({ event: 'session_started', timestamp: 5 }, CONTEXT)).toStrictEqual({
      event: 'session_started',
      timestamp: 5,
    });
  });

  it.each(['flow_completed', 'flow_interrupted', 'flow_resumed', 'flow_cancelled'] as const)(
    'shows %s with its flow and step, or a null step',
    (name) => {
      expect(
        rasaEvent({ event: name, flow_id: 'transfer', step_id: 'ask', timestamp: 6 }, CONTEXT),
      ).toStrictEqual({ event: name, timestamp: 6, flow_id: 'transfer', step_id: 'ask' });
      expect(rasaEvent({ event: name, flow_id: 'transfer', timestamp: 7 }, CONTEXT)).toStrictEqual({
        event: name,
        timestamp: 7,
        flow_id: 'transfer',
        step_id: null,
      });
    },
  );

  it.each([
    'agent_started',
    'agent_completed',
    'agent_interrupted',
    'agent_resumed',
    'agent_cancelled',
  ] as const)('shows %s with its agent and flow', (name) => {
    expect(
      rasaEvent({ event: name, agent_id: 'helper', flow_id: 'transfer', timestamp: 8 }, CONTEXT),
    ).toStrictEqual({ event: name, timestamp: 8, agent_id: 'helper', flow_id: 'transfer' });
  });

  it('refuses an event of an unknown kind, naming it', () => {
    const unknown = { event: 'teleported', timestamp: 9 } as unknown as DialogueEvent;
    expect(() => rasaEvent(unknown, CONTEXT)).toThrow(
      'unknown event {"event":"teleported","timestamp":9}',
    );
  });
});

describe('a user message as Rasa’s NLU would parse it', () => {
  const intentOf = (text: string) => parseData(text, [], undefined, CONTEXT.intents);

  it('names the known intent of a /name message, ranked alone with full confidence', () => {
    expect(intentOf('/greet')).toMatchObject({
      intent: { name: 'greet', confidence: 1 },
      intent_ranking: [{ name: 'greet', confidence: 1 }],
    });
  });

  it('reads the whole intent name, dots and dashes included, up to the entity JSON', () => {
    expect(intentOf('/ask.v2-x{"amount": 3}')).toMatchObject({
      intent: { name: 'ask.v2-x', confidence: 1 },
    });
    expect(intentOf('/greetings')).toMatchObject({ intent: { name: null, confidence: 0 } });
  });

  it('reads the intent of a message with blanks around it', () => {
    expect(intentOf('  /greet  ')).toMatchObject({
      text: '  /greet  ',
      intent: { name: 'greet', confidence: 1 },
    });
  });

  it('names no intent for plain text, an unknown /name or a /name further into the text', () => {
    for (const text of ['hello', '/unknown', 'say /greet', '/_greet', '/1greet']) {
      expect(intentOf(text)).toMatchObject({
        intent: { name: null, confidence: 0 },
        intent_ranking: [],
      });
    }
  });

  it('copies the commands and keeps the metadata', () => {
    const commands = [{ command: 'start flow', flow: 'transfer' }];
    const parsed = parseData('go', commands, { lang: 'en' }, CONTEXT.intents);
    expect(parsed).toMatchObject({ commands, metadata: { lang: 'en' }, entities: [] });
    expect(parsed.commands).not.toBe(commands);
  });
});
