import type { OutputChannel, ReplyBatch } from '../runtime/index.js';
import { foldBatch } from './fold.js';
import { taskOfTurn } from './ids.js';
import type { A2ATaskStore } from './taskStore.js';
import { changeTask } from './tasks.js';

export interface TaskOutputDeps {
  readonly tasks: A2ATaskStore;
  /** `a2a_server.include_conversation_repair`. */
  readonly repairWaitsForInput: boolean;
  readonly now: () => number;
}

/**
 * Where the worker delivers the A2A channel's batches: each is folded into its task, once, after
 * the job's commit (a batch delivered again finds itself folded already).
 */
export function taskOutput(deps: TaskOutputDeps): OutputChannel {
  return {
    deliver: async (batch: ReplyBatch) => {
      const taskId = taskOfTurn(batch.turnId);
      if (!taskId) return;
      await changeTask(deps.tasks, batch.conversationId, taskId, (record) =>
        foldBatch(record, batch, {
          repairWaitsForInput: deps.repairWaitsForInput,
          now: deps.now(),
        }),
      );
    },
  };
}
