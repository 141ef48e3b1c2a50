import { describe, expect, it } from 'vitest';
import { ActionAnswer } from '../../../src/actionServer/answer.js';
import { answerOutcome } from '../../../src/actionServer/index.js';

const SLOTS = new Set(['balance', 'tier']);

describe('the shape of an action server answer', () => {
  it('takes null as an empty answer and keeps its events and responses', () => {
    expect(ActionAnswer.parse(null)).toBeNull();
    const answer = ActionAnswer.parse({
      events: [{ event: 'slot', name: 'balance', value: 3 }],
      responses: [{ text: 'Done' }],
      extra: 'ignored',
    });
    expect(answerOutcome(answer, 'action_x', SLOTS).result).toEqual({
      slots: { balance: 3 },
      responses: [{ message: { text: 'Done' } }],
    });
  });

  it('refuses events or responses that are no list', () => {
    expect(ActionAnswer.safeParse({ events: 'slot' }).success).toBe(false);
    expect(ActionAnswer.safeParse({ responses: { text: 'Hi' } }).success).toBe(false);
  });
});

describe('what an action server answer does', () => {
  it('does nothing and leaves nothing aside when the answer is empty', () => {
    for (const answer of [null, {}, { events: null, responses: null }]) {
      const outcome = answerOutcome(answer, 'action_x', SLOTS);
      expect(outcome.result).toStrictEqual({});
      expect(outcome.ignored).toEqual([]);
    }
  });

  it('sets known slots, a null or missing value included, and leaves aside slots the conversation lacks', () => {
    const { result, ignored } = answerOutcome(
      {
        events: [
          { event: 'slot', name: 'balance', value: 3 },
          { event: 'slot', name: 'tier', value: null },
          { event: 'slot', name: 'ghost', value: 1 },
        ],
      },
      'action_x',
      SLOTS,
    );
    expect(result).toStrictEqual({ slots: { balance: 3, tier: null } });
    expect(
      answerOutcome({ events: [{ event: 'slot', name: 'balance' }] }, 'action_x', SLOTS).result,
    ).toStrictEqual({ slots: { balance: null } });
    expect(ignored).toEqual(['slot event for unknown slot ghost']);
  });

  it('resets the slots, forgetting the slot events before the reset but not after it', () => {
    const { result, ignored } = answerOutcome(
      {
        events: [
          { event: 'slot', name: 'balance', value: 3 },
          { event: 'reset_slots' },
          { event: 'slot', name: 'tier', value: 'gold' },
        ],
      },
      'action_x',
      SLOTS,
    );
    expect(result).toStrictEqual({ slots: { tier: 'gold' }, resetSlots: true });
    expect(ignored).toEqual([]);
  });

  it('restarts the conversation, which covers a reset of the slots', () => {
    const { result, ignored } = answerOutcome(
      {
        events: [
          { event: 'slot', name: 'balance', value: 3 },
          { event: 'reset_slots' },
          { event: 'restart' },
        ],
      },
      'action_x',
      SLOTS,
    );
    expect(result).toStrictEqual({ restart: true });
    expect(ignored).toEqual([]);
  });

  it('asks for a follow-up action, the last one named winning', () => {
    const { result, ignored } = answerOutcome(
      {
        events: [
          { event: 'followup', name: 'action_a' },
          { event: 'followup', name: 'action_b' },
        ],
      },
      'action_x',
      SLOTS,
    );
    expect(result).toStrictEqual({ followup: 'action_b' });
    expect(ignored).toEqual([]);
  });

  it('says a bot event, and says nothing for one without content', () => {
    const { result, ignored } = answerOutcome(
      {
        events: [
          { event: 'bot', text: 'Hello' },
          { event: 'bot', text: null, data: null, metadata: null },
          { event: 'bot', text: '', data: { buttons: [] } },
        ],
      },
      'action_x',
      SLOTS,
    );
    expect(result).toStrictEqual({ responses: [{ message: { text: 'Hello' } }] });
    expect(ignored).toEqual([]);
  });

  it('says nothing for a response that holds no content', () => {
    const { result, ignored } = answerOutcome(
      { responses: [{ text: null, buttons: [] }, { text: '' }] },
      'action_x',
      SLOTS,
    );
    expect(result).toStrictEqual({});
    expect(ignored).toEqual([]);
  });

  it.each([
    ['without a name', { event: 'action_execution_rejected' }],
    ['with a null name', { event: 'action_execution_rejected', name: null }],
    ['naming the action', { event: 'action_execution_rejected', name: 'action_x' }],
  ])('is a refusal of the action when rejected %s, dropping everything else', (_, rejection) => {
    const { result, ignored } = answerOutcome(
      {
        events: [{ event: 'slot', name: 'balance', value: 3 }, rejection, { event: 'restart' }],
        responses: [{ text: 'Done' }],
      },
      'action_x',
      SLOTS,
    );
    expect(result).toStrictEqual({ rejected: 'the action answered action_execution_rejected' });
    expect(ignored).toEqual([]);
  });

  it('names what it leaves aside: entries without an event kind, malformed known events, unknown kinds', () => {
    const { result, ignored } = answerOutcome(
      {
        events: [
          { text: 'no kind' },
          { event: 3 },
          null,
          ['slot'],
          { event: 'followup' },
          { event: 'bot', data: 'not an object' },
          { event: 'slot', name: 7 },
          { event: 'reset_slots_later' },
        ],
      },
      'action_x',
      SLOTS,
    );
    expect(result).toStrictEqual({});
    expect(ignored).toEqual([
      'an entry that is not an event',
      'an entry that is not an event',
      'an entry that is not an event',
      'an entry that is not an event',
      'a malformed followup event',
      'a malformed bot event',
      'a malformed slot event',
      'reset_slots_later event',
    ]);
  });
});
