/**
 * The steps of an A2A run after the first, while its task works: a pushed notification (while the
 * task works, its status message is shown at once; otherwise the task is fetched with `GetTask`),
 * the task's stream read again, or a delayed poll of `GetTask`.
 */
import { phaseOf, textPart } from './messages.js';
import { done, fatal, waitFor } from './outcomes.js';
import { poll } from './poll.js';
import { sawState, statusMessage } from './progress.js';
import { PushUpdate } from './push.js';
import type { A2ARunData } from './runData.js';
import type { A2AStep, A2AStepResult } from './step.js';
import { resubscribe } from './stream.js';

/** A later step: a pushed update, the task's stream again, or a poll. */
export async function followUp(step: A2AStep, data: A2ARunData): Promise<A2AStepResult> {
  const { context } = step;
  if (!data.taskId) return done(data, fatal(data, 'the run has no task to wait for'));
  const pushed = context.update === undefined ? undefined : PushUpdate.safeParse(context.update);
  if (pushed?.success) {
    const update = pushed.data;
    const stream = data.stream === true;
    // Another task's notification (a forged or stray one) changes nothing.
    if (update.task_id !== data.taskId) return waitFor(step, data, [], stream);
    const seen = sawState(data, update.state, step.now());
    const phase = update.state === undefined ? undefined : phaseOf(update.state);
    const working = phase === 'working';
    // The question the message answers, notified again, says nothing new.
    const asking =
      phase === 'input_required' && seen.asked !== undefined && update.message?.id === seen.asked;
    if (working || asking) {
      const said =
        working && update.message
          ? statusMessage(seen, {
              messageId: update.message.id,
              parts: [textPart(update.message.text)],
            })
          : { run: seen, messages: [] };
      return waitFor(step, said.run, said.messages, stream);
    }
    return poll(step, seen, false);
  }
  if (data.stream) return resubscribe(step, data);
  return poll(step, data, true);
}
