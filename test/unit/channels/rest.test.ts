import { describe, expect, it } from 'vitest';
import { parseRestWebhook, restMessageJob } from '../../../src/channels/index.js';
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
