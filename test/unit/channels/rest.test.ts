import { describe, expect, it } from 'vitest';
import {
  parseRestWebhook,
  restChannel,
  restMessageJob,
  toRestReply,
} from '../../../src/channels/index.js';
import { HttpError } from '../../../src/runtime/index.js';

const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

describe('parseRestWebhook', () => {
  it('refuses metadata nested thousands deep with 400 instead of overflowing the stack', () => {
    const body = `{"sender": "deep", "message": "hi", "metadata": ${nested(4200)}}`;
    expect(() => parseRestWebhook(body, 'application/json')).toThrow(
      new HttpError(400, 'the body is nested deeper than 32 levels'),
    );
  });

  it('accepts metadata nested within 32 levels, brackets inside strings not counting', () => {
    const body = `{"sender": "ok", "message": "${'[{\\"'.repeat(40)}", "metadata": ${nested(31)}}`;
    expect(parseRestWebhook(body, 'application/json').sender).toBe('ok');
  });
});

describe('restMessageJob', () => {
  const newId = () => 'fresh';

  it('gives a retried message the same job, so it is processed once', () => {
    const body = { sender: 'ada', message: 'hi', metadata: { message_id: 'm-1' } };
    expect(restMessageJob(body, newId).id).toBe(restMessageJob({ ...body }, newId).id);
  });

  it("never takes another sender's message with the same id for a retry", () => {
    const ada = restMessageJob(
      { sender: 'ada', message: 'hi', metadata: { message_id: 'm-1' } },
      newId,
    );
    const bo = restMessageJob(
      { sender: 'bo', message: 'hi', metadata: { message_id: 'm-1' } },
      newId,
    );
    expect(ada.id).not.toBe(bo.id);
    expect([ada.conversation_id, bo.conversation_id]).toEqual(['ada', 'bo']);
  });

  it('gives a message without an id a fresh job', () => {
    expect(restMessageJob({ sender: 'ada', message: 'hi' }, newId).id).toBe('fresh');
  });
});

describe('parseRestWebhook reasons', () => {
  const refusal = (body: string, contentType: string | undefined = 'application/json') => {
    try {
      parseRestWebhook(body, contentType);
    } catch (error) {
      if (error instanceof HttpError) return [error.status, error.message];
    }
    return 'accepted';
  };

  it('takes JSON with a charset, and refuses other content types with 415', () => {
    const body = '{"sender": "ada", "message": "hi"}';
    expect(refusal(body, 'application/json; charset=utf-8')).toBe('accepted');
    expect(refusal(body, 'Application/JSON')).toBe('accepted');
    for (const type of ['text/plain', 'text/application/json', 'application/jsonp']) {
      expect(refusal(body, type)).toEqual([
        415,
        `the body must be JSON (Content-Type: application/json); the request sent ${type}`,
      ]);
    }
  });

  it('refuses a body without a Content-Type with 415, as it refuses text/plain', () => {
    const body = '{"sender": "ada", "message": "hi"}';
    const none = [
      415,
      'the body must be JSON (Content-Type: application/json); the request has none',
    ];
    expect(() => parseRestWebhook(body, undefined)).toThrow(new HttpError(415, String(none[1])));
    for (const type of ['', ' ; charset=utf-8']) expect(refusal(body, type)).toEqual(none);
  });

  it('refuses a body over 65536 bytes with 413, and takes one of exactly that size', () => {
    const wrap = (size: number) => {
      const start = '{"sender": "ada", "message": "hi", "metadata": {"pad": "';
      return `${start}${' '.repeat(size - start.length - 3)}"}}`;
    };
    expect(Buffer.byteLength(wrap(65_536))).toBe(65_536);
    // 64 KiB of metadata is over the metadata limit: the body limit is checked first.
    expect(refusal(wrap(65_537))).toEqual([413, 'the body is larger than 65536 bytes']);
    expect(refusal(wrap(65_536))[0]).toBe(400);
  });

  it('takes metadata of exactly 8 KiB as JSON and refuses a byte more', () => {
    const withMetadata = (bytes: number) => {
      const pad = 'x'.repeat(bytes - '{"pad":""}'.length);
      return `{"sender": "ada", "message": "hi", "metadata": {"pad": "${pad}"}}`;
    };
    expect(refusal(withMetadata(8192))).toBe('accepted');
    expect(refusal(withMetadata(8193))).toEqual([
      400,
      'metadata: metadata must be at most 8192 bytes as JSON',
    ]);
  });

  it('names the field at fault', () => {
    expect(refusal('{"message": "hi"}')).toEqual([400, 'sender is required and must be a string']);
    expect(refusal('{"sender": "ada", "message": 5}')).toEqual([400, 'message must be a string']);
    expect(refusal('{"sender": "ada", "message": "hi", "extra": 1, "more": 2}')).toEqual([
      400,
      'unknown field(s): extra, more; the body has sender, message and optional metadata',
    ]);
    expect(refusal('{"sender": "a b", "message": "hi"}')).toEqual([
      400,
      expect.stringMatching(/^sender: sender may contain /),
    ]);
    expect(refusal('{"sender": "ada", "message": "hi", "metadata": {"a": 1, "b": [1]}}')).toBe(
      'accepted',
    );
    expect(refusal('{"sender": "ada", "message": "hi", "metadata": [1]}')).toEqual([
      400,
      'metadata must be an object',
    ]);
    expect(refusal('{"sender": "ada", "message": "hi", "metadata": {"a": "x".repeat}}')).toEqual([
      400,
      'the body is not valid JSON',
    ]);
    expect(refusal('[1, 2]')).toEqual([400, expect.not.stringMatching(/^: /)]);
  });

  it('counts only open objects and arrays towards the depth, not closed ones or brackets in strings', () => {
    const siblings = `[${'[[]],'.repeat(100)}[]]`;
    const body = (metadata: string, message = 'hi') =>
      `{"sender": "ada", "message": "${message}", "metadata": {"m": ${metadata}}}`;
    expect(refusal(body(siblings))).toBe('accepted');
    expect(refusal(body(`{"x": ${siblings}}`))).toBe('accepted');
    expect(refusal(body('1', '}}}}]]]] \\" {{{{'))).toBe('accepted');
    // The body and its metadata are two levels: 30 more make 32, 31 make 33.
    const deep = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
    expect(refusal(body(deep(30)))).toBe('accepted');
    expect(refusal(body(deep(31)))).toEqual([400, 'the body is nested deeper than 32 levels']);
  });
});

describe('restMessageJob ids', () => {
  it('keeps sender and message id apart, so no two pairs share a job', () => {
    const job = (sender: string, messageId: string) =>
      restMessageJob({ sender, message: 'hi', metadata: { message_id: messageId } }, () => 'x').id;
    expect(job('ab', 'c')).not.toBe(job('a', 'bc'));
  });

  it('treats an empty message id as none, and carries the metadata to the turn', () => {
    const job = restMessageJob(
      { sender: 'ada', message: 'hi', metadata: { message_id: '', source: 'app' } },
      () => 'fresh',
    );
    expect(job).toEqual({
      type: 'user_message',
      id: 'fresh',
      conversation_id: 'ada',
      turn_id: 'fresh',
      text: 'hi',
      metadata: { message_id: '', source: 'app' },
      channel: 'rest',
    });
  });
});

describe('toRestReply', () => {
  it('answers each part of a bot message as Rasa does, and leaves out the parts it lacks', () => {
    const reply = (message: Record<string, unknown>) =>
      toRestReply({ id: 'j#0', recipient_id: 'ada', message });
    expect(reply({ text: 'hi' })).toEqual({ recipient_id: 'ada', text: 'hi' });
    expect(reply({ image: 'https://x/car.png', custom: { kind: 'card' } })).toEqual({
      recipient_id: 'ada',
      image: 'https://x/car.png',
      custom: { kind: 'card' },
    });
    expect(reply({ text: '', custom: null })).toEqual({
      recipient_id: 'ada',
      text: '',
      custom: null,
    });
    expect(Object.keys(reply({}))).toEqual(['recipient_id']);
  });
});

describe('the REST webhook’s wait for replies', () => {
  it('polls with growing pauses up to 250 ms and answers with what it has at the deadline', async () => {
    let now = 0;
    const sleeps: number[] = [];
    const channel = restChannel({
      queue: { enqueue: async () => {} },
      store: {} as never,
      replies: {
        deliver: async () => {},
        read: async () => ({
          messages: [{ id: 'j#0', recipient_id: 'ada', message: { text: `at ${now}` } }],
          settled: false,
        }),
      },
      newId: () => 'job',
      now: () => now,
      sleep: async (ms) => {
        sleeps.push(ms);
        now += ms;
      },
      replyWaitMs: 1000,
    });
    const route = channel.routes[0];

    const response = await route?.handle({
      method: 'POST',
      path: '/webhooks/rest/webhook',
      headers: { 'content-type': 'application/json' },
      params: {},
      body: '{"sender": "ada", "message": "hi"}',
    });

    expect(sleeps).toEqual([20, 40, 80, 160, 250, 250, 200]);
    expect(response).toEqual({ status: 200, body: [{ recipient_id: 'ada', text: 'at 1000' }] });
    expect(route).toMatchObject({ method: 'POST', authenticated: true });
  });
});
