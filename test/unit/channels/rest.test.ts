import { describe, expect, it } from 'vitest';
import { restMessageJob } from '../../../src/channels/index.js';

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
