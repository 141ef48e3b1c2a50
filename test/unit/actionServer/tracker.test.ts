import { describe, expect, it } from 'vitest';
import { rasaDomain, rasaTracker, sendsDomain } from '../../../src/actionServer/index.js';
import type { Assistant } from '../../../src/assistant/index.js';
import type { ActionContext, DialogueEvent } from '../../../src/dialogue/index.js';

const INTENTS = new Set(['greet']);

function context(events: DialogueEvent[], extra: Partial<ActionContext> = {}): ActionContext {
  return {
    senderId: 'ada',
    slots: { name: 'Ada' },
    latestMessage: undefined,
    flowId: 'greet',
    stepId: 'hello',
    events,
    ...extra,
  };
}

describe("Rasa's tracker for an action", () => {
  it('names the latest action as Rasa would: listen after a message, a response after it is said', () => {
    const user: DialogueEvent = { event: 'user', text: 'hello', timestamp: 1 };
    const said: DialogueEvent = {
      event: 'bot',
      text: 'Hi!',
      metadata: { utter_action: 'utter_greet' },
      timestamp: 2,
    };
    const action: DialogueEvent = { event: 'action', name: 'action_check', timestamp: 3 };
    expect(rasaTracker(context([user]), INTENTS).latest_action_name).toBe('action_listen');
    expect(rasaTracker(context([user, said]), INTENTS).latest_action_name).toBe('utter_greet');
    expect(rasaTracker(context([user, said, action]), INTENTS).latest_action).toEqual({
      action_name: 'action_check',
    });
    expect(rasaTracker(context([]), INTENTS).latest_action_name).toBeNull();
  });

  it('takes the latest message from the events when the turn answers no message', () => {
    const tracker = rasaTracker(
      context([
        { event: 'user', text: '/greet', timestamp: 1 },
        { event: 'agent_completed', agent_id: 'helper', flow_id: 'greet', timestamp: 2 },
      ]),
      INTENTS,
    );
    expect(tracker.latest_message).toMatchObject({
      text: '/greet',
      intent: { name: 'greet', confidence: 1 },
      intent_ranking: [{ name: 'greet', confidence: 1 }],
    });
    expect(tracker.events).toEqual([
      expect.objectContaining({ event: 'user' }),
      { event: 'agent_completed', timestamp: 2, agent_id: 'helper', flow_id: 'greet' },
    ]);
    expect(rasaTracker(context([]), INTENTS).latest_message).toBeNull();
  });

  it('names no intent for a message that is not a known /intent', () => {
    const tracker = rasaTracker(context([], { latestMessage: '/unknown' }), INTENTS);
    expect(tracker.latest_message).toMatchObject({ intent: { name: null, confidence: 0 } });
  });

  it('shows patterns typed by their flow id with their data, and agents with their state', () => {
    const tracker = rasaTracker(
      context([], {
        stack: [
          {
            type: 'flow',
            frame_id: 'f1',
            flow_id: 'greet',
            step_id: 'ask',
            frame_type: 'regular',
            interrupted: true,
          },
          {
            type: 'agent',
            frame_id: 'f2',
            agent_id: 'helper',
            flow_id: 'greet',
            step_id: 'ask',
            status: 'input_required',
          },
          {
            type: 'pattern',
            frame_id: 'f3',
            flow_id: 'pattern_collect_information',
            step_id: 'start',
            data: { collect: 'name', utter: 'utter_ask_name' },
          },
        ],
      }),
      INTENTS,
    );
    expect(tracker.stack).toEqual([
      { type: 'flow', frame_id: 'f1', flow_id: 'greet', step_id: 'ask', frame_type: 'regular' },
      {
        type: 'agent',
        frame_id: 'f2',
        agent_id: 'helper',
        flow_id: 'greet',
        step_id: 'ask',
        state: 'input_required',
      },
      {
        type: 'pattern_collect_information',
        frame_id: 'f3',
        flow_id: 'pattern_collect_information',
        step_id: 'start',
        collect: 'name',
        utter: 'utter_ask_name',
      },
    ]);
  });
});

describe("Rasa's domain for an action", () => {
  const assistant = {
    intents: ['greet'],
    slots: { name: { type: 'text' }, tier: { type: 'categorical', values: ['a', 'b'] } },
    responses: { utter_greet: [{ text: 'Hi' }] },
    domainActions: ['action_a', 'action_b', 'validate_name'],
    domainActionsSendingDomain: ['action_b'],
    actionEndpoint: { url: 'http://127.0.0.1:5055/webhook' },
  } as unknown as Assistant;

  it("gives slots Rasa's defaults and names the domain's actions", () => {
    const { domain, digest } = rasaDomain(assistant);
    expect(domain).toMatchObject({
      intents: ['greet'],
      slots: {
        name: { type: 'text', initial_value: null, mappings: [{ type: 'from_llm' }] },
        tier: { type: 'categorical', values: ['a', 'b'] },
      },
      responses: { utter_greet: [{ text: 'Hi' }] },
      actions: ['action_a', 'action_b', 'validate_name'],
      forms: {},
    });
    expect(rasaDomain(assistant).digest).toBe(digest);
    const other = { ...assistant, intents: ['bye'] } as unknown as Assistant;
    expect(rasaDomain(other).digest).not.toBe(digest);
  });

  it('goes to every action, or with enable_selective_domain to those that ask for it', () => {
    expect(sendsDomain(assistant, 'action_a')).toBe(true);
    const selective = {
      ...assistant,
      actionEndpoint: { url: 'http://127.0.0.1:5055/webhook', enable_selective_domain: true },
    } as unknown as Assistant;
    expect(sendsDomain(selective, 'action_a')).toBe(false);
    expect(sendsDomain(selective, 'action_b')).toBe(true);
    expect(sendsDomain(selective, 'validate_name')).toBe(true);
  });
});
