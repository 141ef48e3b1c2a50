import { describe, expect, it } from 'vitest';
import { botEventResponse, responseOf } from '../../../src/actionServer/index.js';

describe('a response entry that names a domain response', () => {
  it('takes as template variables only the keys that are not part of a message', () => {
    expect(
      responseOf({
        response: 'utter_hi',
        template: null,
        text: null,
        buttons: null,
        elements: null,
        custom: null,
        image: null,
        attachment: null,
        quick_replies: null,
        who: 'Ada',
      }),
    ).toStrictEqual({ name: 'utter_hi', variables: { who: 'Ada' } });
  });

  it('has no variables when the entry has no other keys', () => {
    expect(responseOf({ response: 'utter_hi' })).toStrictEqual({ name: 'utter_hi' });
  });

  it('carries the message parts the entry gives along with the name', () => {
    expect(
      responseOf({ response: 'utter_hi', text: 'Hello there', image: 'https://x/a.png' }),
    ).toStrictEqual({
      name: 'utter_hi',
      message: { text: 'Hello there', image: 'https://x/a.png' },
    });
  });

  it('takes the older `template` name when `response` is empty', () => {
    expect(responseOf({ response: '', template: 'utter_old' })).toStrictEqual({
      name: 'utter_old',
    });
  });
});

describe('a response entry without a name', () => {
  it('is a message with an image alone', () => {
    expect(responseOf({ image: 'https://x/a.png' })).toStrictEqual({
      message: { image: 'https://x/a.png' },
    });
  });

  it('is a message with buttons alone', () => {
    expect(responseOf({ buttons: [{ title: 'Yes', payload: '/affirm' }] })).toStrictEqual({
      message: { buttons: [{ title: 'Yes', payload: '/affirm' }] },
    });
  });

  it('is a message with custom content alone', () => {
    expect(responseOf({ custom: { kind: 'card' } })).toStrictEqual({
      message: { custom: { kind: 'card' } },
    });
  });

  it('is a message with text alone, without empty fields', () => {
    expect(responseOf({ text: 'Hi', image: '', custom: null, buttons: [] })).toStrictEqual({
      message: { text: 'Hi' },
    });
  });

  it('says nothing with an empty text or a text that is no string', () => {
    expect(responseOf({ text: '' })).toBeUndefined();
    expect(responseOf({ text: 42 })).toBeUndefined();
    expect(responseOf({ text: '', image: 'https://x/a.png' })).toStrictEqual({
      message: { image: 'https://x/a.png' },
    });
  });

  it('drops false, zero and empty-string extra keys from the metadata, as Rasa does', () => {
    expect(
      responseOf({ text: 'Hi', off: false, none: 0, blank: '', nothing: null, on: true, n: 1 }),
    ).toStrictEqual({ message: { text: 'Hi', metadata: { on: true, n: 1 } } });
  });

  it('keeps a false or zero custom out of the message', () => {
    expect(responseOf({ text: 'Hi', custom: false })).toStrictEqual({ message: { text: 'Hi' } });
    expect(responseOf({ text: 'Hi', custom: 0 })).toStrictEqual({ message: { text: 'Hi' } });
    expect(responseOf({ text: 'Hi', custom: '' })).toStrictEqual({ message: { text: 'Hi' } });
  });
});

describe('the buttons of a message', () => {
  it('skips entries that are no button objects', () => {
    expect(
      responseOf({ text: 'Pick', buttons: [null, 'Yes', ['No'], { title: 'Maybe' }] }),
    ).toStrictEqual({ message: { text: 'Pick', buttons: [{ title: 'Maybe', payload: 'Maybe' }] } });
  });

  it('drops a button whose title is null or missing', () => {
    expect(
      responseOf({
        text: 'Pick',
        buttons: [{ title: null, payload: '/a' }, { payload: '/b' }, { title: 'C', payload: '' }],
      }),
    ).toStrictEqual({ message: { text: 'Pick', buttons: [{ title: 'C', payload: 'C' }] } });
  });

  it('gives no buttons when none has a title', () => {
    expect(responseOf({ text: 'Pick', buttons: [{ payload: '/b' }] })).toStrictEqual({
      message: { text: 'Pick' },
    });
  });
});

describe('a bot event of an answer', () => {
  it('has no metadata when the event brings an empty one', () => {
    expect(botEventResponse('Hi', undefined, {})).toStrictEqual({ message: { text: 'Hi' } });
  });

  it('keeps the metadata the event brings', () => {
    expect(botEventResponse('Hi', { image: 'https://x/a.png' }, { lang: 'en' })).toStrictEqual({
      message: { text: 'Hi', image: 'https://x/a.png', metadata: { lang: 'en' } },
    });
  });

  it('says nothing without text or data', () => {
    expect(botEventResponse(null, undefined, { lang: 'en' })).toBeUndefined();
  });
});
