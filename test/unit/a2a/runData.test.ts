import { Task } from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';
import { A2ARunData } from '../../../src/a2a/index.js';
import { idsOf } from '../../../src/a2a/runData.js';

const stored = {
  agentId: 'shop',
  messageId: 'msg-in-1',
  taskId: 't-1',
  contextId: 'c-1',
  asked: 'q-1',
  stream: false,
  waitingSince: 1_800_000_000_000,
  polls: 3,
  push: true,
  shown: ['s-1', 's-2'],
};

describe('A2ARunData', () => {
  it('loads a waiting run as it was stored, and a new one without the optional parts', () => {
    expect(A2ARunData.parse(stored)).toStrictEqual(stored);
    const fresh = { agentId: 'shop', messageId: 'msg-in-1', polls: 0, push: false, shown: [] };
    expect(A2ARunData.parse(fresh)).toStrictEqual(fresh);
  });

  it.each([
    ['a negative poll count', { polls: -1 }],
    ['a fractional poll count', { polls: 1.5 }],
    ['no push flag', { push: undefined }],
    ['shown ids that are not strings', { shown: [1] }],
    ['a waiting time that is not a number', { waitingSince: 'yesterday' }],
    ['no message id', { messageId: undefined }],
  ])('refuses stored data with %s', (_what, change) => {
    expect(A2ARunData.safeParse({ ...stored, ...change }).success).toBe(false);
  });
});

describe('idsOf', () => {
  it('keeps the task’s id and context id, leaving out the ones it does not name', () => {
    expect(idsOf(Task.fromJSON({ id: 't-1', contextId: 'c-1' }))).toStrictEqual({
      taskId: 't-1',
      contextId: 'c-1',
    });
    expect(idsOf(Task.fromJSON({ id: 't-1' }))).toStrictEqual({ taskId: 't-1' });
    expect(idsOf(Task.fromJSON({ contextId: 'c-1' }))).toStrictEqual({ contextId: 'c-1' });
  });
});
