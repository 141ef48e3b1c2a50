import { describe, expect, it } from 'vitest';
import { answerOutcome, responseOf } from '../../../src/actionServer/index.js';

const SLOTS = new Set(['balance']);

describe("an action server's responses", () => {
  it('name a domain response by `template`, as older SDKs do', () => {
    expect(responseOf({ template: 'utter_hi', text: null, buttons: [], who: 'Ada' })).toEqual({
      name: 'utter_hi',
      variables: { who: 'Ada' },
    });
  });

  it('carry buttons with a title, taking a url when there is no payload', () => {
    expect(
      responseOf({
        text: 'Pick one',
        buttons: [
          { title: 'Docs', url: 'https://example.com', type: 'web_url' },
          { title: 'Yes', payload: '/affirm' },
          { payload: '/untitled' },
        ],
      }),
    ).toEqual({
      message: {
        text: 'Pick one',
        buttons: [
          { title: 'Docs', payload: 'https://example.com' },
          { title: 'Yes', payload: '/affirm' },
        ],
      },
    });
  });

  it('put attachments, elements and quick replies into custom, or into metadata when custom is no object', () => {
    expect(
      responseOf({ custom: { kind: 'card' }, elements: [{ title: 'A' }], quick_replies: [] }),
    ).toEqual({ message: { custom: { kind: 'card', elements: [{ title: 'A' }] } } });
    expect(responseOf({ custom: ['raw'], attachment: 'file.pdf' })).toEqual({
      message: { custom: ['raw'], metadata: { attachment: 'file.pdf' } },
    });
  });

  it('keep extra keys of a message without a name as its metadata, and drop a message that says nothing', () => {
    expect(responseOf({ text: 'Hi', channel_hint: 'voice', empty: null })).toEqual({
      message: { text: 'Hi', metadata: { channel_hint: 'voice' } },
    });
    expect(
      responseOf({ text: null, buttons: [], custom: {}, image: null, response: null }),
    ).toBeUndefined();
  });
});

describe("an action server's answer", () => {
  it('leaves aside entries that are no events, malformed events and unknown kinds, and keeps the rest', () => {
    const { result, ignored } = answerOutcome(
      {
        events: [
          'slot',
          { event: 'slot', value: 1 },
          { event: 'user', text: 'injected' },
          { event: 'slot', name: 'balance', value: 3 },
        ],
        responses: [42],
      },
      'action_x',
      SLOTS,
    );
    expect(result).toEqual({ slots: { balance: 3 } });
    expect(ignored).toEqual([
      'a response that is not an object',
      'an entry that is not an event',
      'a malformed slot event',
      'user event',
    ]);
  });

  it('says bot events after the responses, whatever their order in the answer', () => {
    const { result } = answerOutcome(
      {
        events: [{ event: 'bot', text: 'second', data: { image: 'i.png' }, metadata: { a: 1 } }],
        responses: [{ text: 'first' }],
      },
      'action_x',
      SLOTS,
    );
    expect(result.responses).toEqual([
      { message: { text: 'first' } },
      { message: { text: 'second', image: 'i.png', metadata: { a: 1 } } },
    ]);
  });

  it('ignores a rejection of another action, and a restart drops the follow-up before it', () => {
    const { result, ignored } = answerOutcome(
      {
        events: [
          { event: 'followup', name: 'action_y' },
          { event: 'restart' },
          { event: 'action_execution_rejected', name: 'action_other' },
        ],
      },
      'action_x',
      SLOTS,
    );
    expect(result).toEqual({ restart: true });
    expect(ignored).toEqual(['action_execution_rejected for action_other']);
  });
});
