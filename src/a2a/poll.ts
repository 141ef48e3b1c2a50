/**
 * A poll: the run's task fetched with `GetTask`, and taken as it stands (what it said that the
 * user has not seen, then its answer, or the run waits on).
 */
import { onTask } from './outcomes.js';
import type { A2ARunData } from './runData.js';
import type { A2AStep, A2AStepResult } from './step.js';

/** Fetches the task; `counted` polls move the backoff on (a check after a push does not). */
export async function poll(
  step: A2AStep,
  data: A2ARunData,
  counted: boolean,
): Promise<A2AStepResult> {
  const { connection, scope } = step;
  const client = await connection.client(scope);
  const task = await client.getTask(
    { tenant: '', id: data.taskId ?? '' },
    await connection.requestOptions(scope, client),
  );
  return onTask(step, { ...data, polls: data.polls + (counted ? 1 : 0) }, task);
}
