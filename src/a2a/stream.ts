/**
 * The first step's stream, for agents whose card offers one: its events (the task, its status
 * updates and artifact chunks) read within a window, and flushed to the user once the agent has
 * said something.
 */
import type { SendMessageRequest, StreamResponse, Task } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import type { BotMessage } from '../dialogue/index.js';
import { A2AUnavailableError } from './errors.js';
import { outputOfMessage, phaseOf } from './messages.js';
import { finish, newStatusMessage, onTask, waitFor } from './outcomes.js';
import { type A2ARunData, idsOf } from './runData.js';
import type { A2AStep, A2AStepResult } from './step.js';

/** How long a stream is read once the agent has said something, before it is shown. */
export const STREAM_FLUSH_MS = 300;
/** How long a step reads a stream at most; then the run waits for a push or polls. */
export const STREAM_WINDOW_MS = 10_000;

/**
 * Reads the stream of the first step until the agent answers, asks, or fails; until it has
 * said something (shown at once, after a short pause for more); or until the window or the
 * job's deadline ends. Then the run waits for a push or polls.
 */
export async function readStream(
  step: A2AStep,
  client: Client,
  data: A2ARunData,
  request: SendMessageRequest,
): Promise<A2AStepResult> {
  const { agent, connection, scope } = step;
  const stop = new AbortController();
  const window = Math.min(STREAM_WINDOW_MS, connection.timeoutMs(scope));
  const timer = setTimeout(() => stop.abort(), window);
  let flush: ReturnType<typeof setTimeout> | undefined;
  let run = data;
  let task: Task | undefined;
  const messages: BotMessage[] = [];
  const artifacts = new Map<string, Task['artifacts'][number]>();
  try {
    const stream = client.sendMessageStream(request, {
      ...(await connection.requestOptions(scope, client)),
      // The stream is read for the window, not for a request's timeout.
      signal: AbortSignal.any([scope.signal, stop.signal]),
    });
    for await (const event of stream) {
      const payload = (event as StreamResponse).payload;
      if (!payload) continue;
      if (payload.$case === 'message') {
        return finish(step, run, outputOfMessage(request.message?.messageId ?? '', payload.value));
      }
      if (payload.$case === 'task') {
        task = payload.value;
        for (const artifact of task.artifacts) artifacts.set(artifact.artifactId, artifact);
        run = { ...run, ...idsOf(task) };
      } else if (payload.$case === 'artifactUpdate') {
        const artifact = payload.value.artifact;
        if (!artifact) continue;
        const before = artifacts.get(artifact.artifactId);
        artifacts.set(
          artifact.artifactId,
          payload.value.append && before
            ? { ...before, parts: [...before.parts, ...artifact.parts] }
            : artifact,
        );
        continue;
      } else if (payload.$case === 'statusUpdate') {
        const update = payload.value;
        run = {
          ...run,
          taskId: update.taskId || run.taskId,
          contextId: update.contextId || run.contextId,
        };
        task = {
          id: update.taskId,
          contextId: update.contextId,
          status: update.status,
          artifacts: [],
          history: [],
          metadata: undefined,
        };
      }
      if (!task) continue;
      const finished = { ...task, artifacts: [...artifacts.values()] };
      if (phaseOf(finished.status?.state) !== 'working') {
        return onTask(step, run, finished, request.message?.messageId ?? '', messages);
      }
      const said = newStatusMessage(run, finished.status?.message);
      if (said) {
        run = said.run;
        messages.push(said.message);
        flush ??= setTimeout(() => stop.abort(), STREAM_FLUSH_MS);
      }
    }
  } catch (error) {
    if (scope.signal.aborted || !stop.signal.aborted) throw error;
  } finally {
    clearTimeout(timer);
    clearTimeout(flush);
  }
  if (scope.signal.aborted) throw scope.signal.reason;
  if (!run.taskId) {
    throw new A2AUnavailableError(agent.name, 'the stream ended before the agent named its task');
  }
  return waitFor(step, run, messages);
}
