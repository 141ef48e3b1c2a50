import { describe, expect, it } from 'vitest';
import { rasaFrame, rasaTracker } from '../../../src/actionServer/index.js';
import type { ActionContext, DialogueEvent, Frame } from '../../../src/dialogue/index.js';

const INTENTS = new Set(['greet']);

function context(extra: Partial<ActionContext> = {}): ActionContext {
  return {
    senderId: 'ada',
    slots: {},
    latestMessage: undefined,
    flowId: undefined,
    stepId: undefined,
    ...extra,
  };
}

describe("the events of Rasa's tracker", () => {
  it('are empty when the action knows no events', () => {
    const tracker = rasaTracker(context(), INTENTS);
    expect(tracker.events).toEqual([]);
    expect(tracker.latest_event_time).toBeNull();
    expect(tracker.latest_action).toBeNull();
    expect(tracker.latest_action_name).toBeNull();
    expect(tracker.latest_input_channel).toBeNull();
  });

  it('leave stack events out', () => {
    const tracker = rasaTracker(
      context({
        events: [
          { event: 'user', text: 'hello', timestamp: 1 },
          { event: 'stack', stack: [], timestamp: 2 },
        ],
      }),
      INTENTS,
    );
    expect(tracker.events).toEqual([expect.objectContaining({ event: 'user', timestamp: 1 })]);
    expect(tracker.latest_event_time).toBe(1);
  });

  it("give the latest user message the turn's whole metadata, and earlier ones their own", () => {
    const events: DialogueEvent[] = [
      { event: 'user', text: 'first', metadata: { seq: 1 }, timestamp: 1 },
      { event: 'user', text: 'second', metadata: { seq: 2 }, timestamp: 2 },
      { event: 'slot', name: 'x', value: 1, timestamp: 3 },
    ];
    const tracker = rasaTracker(
      context({ events, latestMetadata: { seq: 2, token: 'whole' } }),
      INTENTS,
    );
    const users = (tracker.events as Record<string, unknown>[]).filter((e) => e.event === 'user');
    expect(users.map((e) => e.metadata)).toEqual([{ seq: 1 }, { seq: 2, token: 'whole' }]);
    expect(tracker.latest_message).toMatchObject({ metadata: { seq: 2, token: 'whole' } });
  });

  it('keep the metadata of every user message when the turn brings none', () => {
    const events: DialogueEvent[] = [
      { event: 'user', text: 'first', metadata: { seq: 1 }, timestamp: 1 },
      { event: 'user', text: 'second', metadata: { seq: 2 }, timestamp: 2 },
    ];
    const tracker = rasaTracker(context({ events }), INTENTS);
    const users = tracker.events as Record<string, unknown>[];
    expect(users.map((e) => e.metadata)).toEqual([{ seq: 1 }, { seq: 2 }]);
    expect(tracker.latest_message).toMatchObject({ metadata: { seq: 2 } });
  });
});

describe("the latest message of Rasa's tracker", () => {
  it('has no commands when the user message had none', () => {
    const tracker = rasaTracker(
      context({ events: [{ event: 'user', text: 'hello', timestamp: 1 }] }),
      INTENTS,
    );
    expect(tracker.latest_message).toMatchObject({ text: 'hello', commands: [] });
  });

  it("has the user message's commands when it is that message", () => {
    const commands = [{ command: 'start flow' as const, flow: 'greet' }];
    const tracker = rasaTracker(
      context({
        latestMessage: 'hello',
        events: [{ event: 'user', text: 'hello', commands, timestamp: 1 }],
      }),
      INTENTS,
    );
    expect(tracker.latest_message).toMatchObject({ text: 'hello', commands });
  });

  it('has no commands when it is another text than the latest user event', () => {
    const tracker = rasaTracker(
      context({
        latestMessage: 'bye',
        events: [
          {
            event: 'user',
            text: 'hello',
            commands: [{ command: 'start flow', flow: 'greet' }],
            timestamp: 1,
          },
        ],
      }),
      INTENTS,
    );
    expect(tracker.latest_message).toMatchObject({ text: 'bye', commands: [] });
  });
});

describe("the latest action of Rasa's tracker", () => {
  it('looks past a bot message that names no response', () => {
    const tracker = rasaTracker(
      context({
        events: [
          { event: 'user', text: 'hello', timestamp: 1 },
          { event: 'bot', text: 'Hi', timestamp: 2 },
        ],
      }),
      INTENTS,
    );
    expect(tracker.latest_action).toEqual({ action_name: 'action_listen' });
  });
});

describe("a frame of Rasa's stack", () => {
  it('is refused when of an unknown type, naming it', () => {
    const unknown = { type: 'mystery', frame_id: 'f9' } as unknown as Frame;
    expect(() => rasaFrame(unknown)).toThrow('unknown frame {"type":"mystery","frame_id":"f9"}');
  });
});
