import type { TaskRecord } from '../../src/a2aServer/index.js';

/** A stored task just accepted, in context `ctx`, on the turn `<id>/a2a-job`. */
export function taskRecord(id: string, fields: Partial<TaskRecord> = {}): TaskRecord {
  return {
    v: 1,
    id,
    context_id: 'ctx',
    version: 1,
    created_at: 0,
    state: 'TASK_STATE_SUBMITTED',
    status_at: 0,
    history: [],
    artifacts: [],
    slots: {},
    turn: { id: `${id}/a2a-job`, version: 0, settled: false },
    updates: [],
    next_seq: 0,
    protocol: '1.0',
    push: [],
    ...fields,
  };
}
