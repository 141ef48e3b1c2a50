/**
 * The steps of an A2A run after the first, while its task works: a pushed notification (while the
 * task works, its status message is shown at once; otherwise the task is fetched with `GetTask`)
 * or a delayed poll of `GetTask`.
 */
import { outputOfTask, phaseOf } from './messages.js';
import { done, fatal, finish, newStatusMessage, waitFor } from './outcomes.js';
import { PushUpdate } from './push.js';
import type { A2ARunData } from './runData.js';
import type { A2AStep, A2AStepResult } from './step.js';

/** A later step: a pushed update, or a poll. `cancelTask` cancels a task the run gives up on. */
export async function followUp(
  step: A2AStep,
  data: A2ARunData,
  cancelTask: () => Promise<void>,
): Promise<A2AStepResult> {
  const { connection, context, scope } = step;
  if (!data.taskId) return done(data, fatal(data, 'the run has no task to wait for'));
  const pushed = context.update === undefined ? undefined : PushUpdate.safeParse(context.update);
  if (pushed?.success) {
    const update = pushed.data;
    // Another task's notification (a forged or stray one) changes nothing.
    if (update.task_id !== data.taskId) return waitFor(step, data, []);
    if (update.state !== undefined && phaseOf(update.state) === 'working') {
      const said = update.message
        ? newStatusMessage(data, {
            messageId: update.message.id,
            parts: [
              {
                content: { $case: 'text', value: update.message.text },
                metadata: undefined,
                filename: '',
                mediaType: '',
              },
            ],
          })
        : undefined;
      return waitFor(step, said?.run ?? data, said ? [said.message] : []);
    }
  }
  const client = await connection.client(scope);
  const task = await client.getTask(
    { tenant: '', id: data.taskId },
    await connection.requestOptions(scope, client),
  );
  const polled = { ...data, polls: data.polls + (pushed ? 0 : 1) };
  const output = outputOfTask(context.runId, task);
  if (output) return finish(step, polled, output);
  const said = newStatusMessage(polled, task.status?.message);
  // A task given up on is cancelled, so that it does not go on for nobody.
  return waitFor(step, said?.run ?? polled, said ? [said.message] : [], cancelTask);
}
