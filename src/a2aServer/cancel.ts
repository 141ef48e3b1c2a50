/**
 * `CancelTask`: the task is marked `canceled` (on the condition that it is not over by then), and
 * a job of its conversation cancels its flow, as the user's "stop" would, with the command given
 * rather than asked of the model. A task of its context that a later task superseded no longer
 * owns the conversation's flow: only the mark applies to it.
 */
import { randomUUID } from 'node:crypto';
import { TaskNotCancelableError } from '@a2a-js/sdk/errors';
import type { Job } from '../runtime/index.js';
import type { AcceptDeps } from './accept.js';
import { A2A_CHANNEL, turnIdOf } from './ids.js';
import { queuePushes } from './push.js';
import { type TaskRecord, TERMINAL } from './record.js';
import { changeTask } from './tasks.js';
import { agentMessage, part, withState } from './updates.js';

export async function cancelTask(
  deps: AcceptDeps,
  conversationId: string,
  record: TaskRecord,
  caller: string,
): Promise<TaskRecord> {
  if (TERMINAL.has(record.state)) throw notCancelable(record);
  const jobId = `a2a-cancel-${randomUUID()}`;
  const turnId = turnIdOf(record.id, jobId);
  const later = (await deps.tasks.list(conversationId)).some(
    (other) => other.id !== record.id && other.created_at > record.created_at,
  );
  const cancelled = await changeTask(deps.tasks, conversationId, record.id, (r) => {
    if (TERMINAL.has(r.state)) throw notCancelable(r);
    const said = agentMessage(r, `${jobId}#canceled`, [
      part({ $case: 'text', value: 'The task was canceled.' }),
    ]);
    const turned = { ...r, turn: { id: turnId, version: r.turn.version, settled: true } };
    return withState(turned, 'TASK_STATE_CANCELED', deps.now(), said);
  });
  if (!cancelled) throw notCancelable(record);
  if (!later) {
    const job: Job = {
      type: 'user_message',
      id: jobId,
      conversation_id: conversationId,
      turn_id: turnId,
      text: '',
      metadata: {
        a2a: { context_id: record.context_id, task_id: record.id, cancel: true, caller },
      },
      commands: [{ command: 'cancel flow' }],
      channel: A2A_CHANNEL,
    };
    await deps.queue.enqueue([job]);
  }
  await queuePushes(deps, conversationId, cancelled);
  return cancelled;
}

function notCancelable(record: TaskRecord): Error {
  return new TaskNotCancelableError(`task ${record.id} is ${record.state} and cannot be canceled`);
}
