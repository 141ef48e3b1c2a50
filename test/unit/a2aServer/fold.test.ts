import { describe, expect, it } from 'vitest';
import { foldBatch } from '../../../src/a2aServer/index.js';
import { initialState } from '../../../src/dialogue/index.js';
import type { ReplyBatch } from '../../../src/runtime/index.js';
import { taskRecord } from '../../helpers/a2aRecords.js';

const TASK = 'task-1~ctx';
const TURN = `${TASK}/a2a-job`;

const record = taskRecord(TASK, { turn: { id: TURN, version: 3, settled: false } });

const flowOnStack = {
  ...initialState('a2a:ctx', {}),
  stack: [
    {
      type: 'flow' as const,
      frame_id: 'f1',
      flow_id: 'greet',
      step_id: 'ask',
      frame_type: 'regular' as const,
    },
  ],
};

function batch(
  fields: Partial<ReplyBatch> & { texts?: string[]; started?: string[]; completed?: string[] },
): ReplyBatch {
  const events = [
    ...(fields.started ?? []).map((flow_id) => ({
      event: 'flow_started' as const,
      flow_id,
      timestamp: 1,
    })),
    ...(fields.completed ?? []).map((flow_id) => ({
      event: 'flow_completed' as const,
      flow_id,
      timestamp: 1,
    })),
  ];
  return {
    conversationId: 'a2a:ctx',
    turnId: TURN,
    jobId: 'a2a-job',
    version: 4,
    channel: 'a2a',
    messages: (fields.texts ?? []).map((text, i) => ({
      id: `m${i}`,
      recipient_id: 'a2a:ctx',
      message: { text },
    })),
    settled: true,
    state: initialState('a2a:ctx', {}),
    events: events.map((event, seq) => ({ seq, event })),
    ...fields,
  };
}

const fold = (b: ReplyBatch, repair = true) =>
  foldBatch(record, b, { repairWaitsForInput: repair, now: 1000 });

describe('foldBatch', () => {
  it('waits for input while a flow is on the stack, with the bot’s messages as the status', () => {
    const next = fold(batch({ texts: ['What is your name?'], state: flowOnStack }));
    expect(next?.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(next?.status_message).toMatchObject({ parts: [{ text: 'What is your name?' }] });
    expect(next?.turn).toEqual({ id: TURN, version: 4, settled: true });
  });

  it('keeps working with each filler message while sub agents run', () => {
    const next = fold(batch({ texts: ['Let me check…'], settled: false }));
    expect(next?.state).toBe('TASK_STATE_WORKING');
    expect(next?.updates.map((u) => u.update)).toEqual([
      expect.objectContaining({
        statusUpdate: expect.objectContaining({
          status: expect.objectContaining({ state: 'TASK_STATE_WORKING' }),
        }),
      }),
    ]);
  });

  it('fails when the internal-error pattern ran', () => {
    expect(fold(batch({ texts: ['Sorry.'], started: ['pattern_internal_error'] }))?.state).toBe(
      'TASK_STATE_FAILED',
    );
  });

  it('waits for input after a repair turn, or completes when repair turns are not reported', () => {
    const repaired = batch({
      texts: ['Sorry, I cannot help.'],
      started: ['pattern_cannot_handle'],
    });
    expect(fold(repaired)?.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(fold(repaired, false)?.state).toBe('TASK_STATE_COMPLETED');
  });

  it('completes when the flow ended, even if a correction ran on the way', () => {
    const next = fold(
      batch({
        texts: ['Done.'],
        started: ['pattern_correction', 'pattern_completed'],
        completed: ['greet'],
      }),
    );
    expect(next?.state).toBe('TASK_STATE_COMPLETED');
    expect(next?.artifacts).toEqual([expect.objectContaining({ name: 'text' })]);
  });

  it('folds a batch once, and none of another turn or into a task that is over', () => {
    const once = fold(batch({ texts: ['Hi'], state: flowOnStack }));
    expect(
      once && foldBatch(once, batch({ texts: ['Hi'] }), { repairWaitsForInput: true, now: 2 }),
    ).toBeUndefined();
    expect(fold(batch({ turnId: `${TASK}/other` }))).toBeUndefined();
    expect(
      foldBatch({ ...record, state: 'TASK_STATE_CANCELED' }, batch({}), {
        repairWaitsForInput: true,
        now: 2,
      }),
    ).toBeUndefined();
  });
});
