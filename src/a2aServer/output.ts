/**
 * The A2A channel's output, on the worker: each batch of a turn is folded into its task once,
 * after the job's commit (a batch delivered again finds itself folded already), and the task's
 * new updates are queued for its push targets. Its own jobs send push notifications and fail
 * tasks whose turn outlived `task_timeout_seconds`.
 */
import * as z from 'zod/mini';
import type { ChannelWork, OutputChannel, ReplyBatch } from '../runtime/index.js';
import { foldBatch } from './fold.js';
import { taskOfTurn } from './ids.js';
import { type PushDeps, queuePushes, sendPushes } from './push.js';
import { changeTask, expireTask } from './tasks.js';

export interface TaskOutputDeps extends PushDeps {
  /** `a2a_server.include_conversation_repair`. */
  readonly repairWaitsForInput: boolean;
}

const Work = z.object({ kind: z.enum(['push', 'timeout']), task_id: z.string() });

export function taskOutput(deps: TaskOutputDeps): OutputChannel {
  return {
    deliver: async (batch: ReplyBatch) => {
      const taskId = taskOfTurn(batch.turnId);
      if (!taskId) return;
      const record = await changeTask(deps.tasks, batch.conversationId, taskId, (r) =>
        foldBatch(r, batch, { repairWaitsForInput: deps.repairWaitsForInput, now: deps.now() }),
      );
      if (record) await queuePushes(deps, batch.conversationId, record);
    },
    work: async (job: ChannelWork, signal: AbortSignal) => {
      const work = Work.safeParse(job.work);
      if (!work.success) return;
      if (work.data.kind === 'push') {
        await sendPushes(deps, job, signal);
        return;
      }
      const record = await expireTask(deps.tasks, job.conversation_id, work.data.task_id, deps.now);
      if (record) await queuePushes(deps, job.conversation_id, record);
    },
  };
}
