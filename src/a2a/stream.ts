/**
 * A task's stream: the one the first step opens by sending its message (for agents whose card
 * offers streaming), and the one a later step resubscribes to. Its events (the task, its artifact
 * chunks, its status updates) are applied in order until the agent answers (a message, a status
 * that ends the task, or one that asks, unless it is the question the message answers shown
 * again) or the stream ends. The first step stops as soon as the stream names the task, so that
 * the task's id is committed before anything else can go wrong, and the next step reads on. What
 * the agent says is shown once it pauses; then the stream is read on again.
 */
import type { Artifact, SendMessageRequest, StreamResponse, Task } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import type { BotMessage } from '../dialogue/index.js';
import { A2AUnavailableError } from './errors.js';
import { outputOfMessage, phaseOf } from './messages.js';
import { finish, timeLeftMs, verdictOf, waitFor } from './outcomes.js';
import { poll } from './poll.js';
import { type Said, sawState, statusMessage, taskProgress } from './progress.js';
import { type A2ARunData, idsOf } from './runData.js';
import type { A2AStep, A2AStepResult } from './step.js';

/** How long a stream is read once the agent has said something, before it is shown. */
export const STREAM_FLUSH_MS = 300;
/** How long a step reads a stream at most; then the run waits for a push or polls. */
export const STREAM_WINDOW_MS = 10_000;

type Events = AsyncIterable<StreamResponse>;
/** Which stream: one a message opens (a new task's, or one that continues a task), or one resubscribed to. */
type Kind = 'send' | 'continue' | 'resubscribe';

/** The first step's stream, opened by sending the message. */
export function sendStream(
  step: A2AStep,
  client: Client,
  data: A2ARunData,
  request: SendMessageRequest,
): Promise<A2AStepResult> {
  const { connection, scope } = step;
  const kind = request.message?.taskId ? 'continue' : 'send';
  return readStream(step, data, kind, async (signal) =>
    client.sendMessageStream(request, {
      ...(await connection.requestOptions(scope, client)),
      signal,
    }),
  );
}

/**
 * A later step reads the task's stream again. A task that has ended cannot be subscribed to, and
 * an agent may refuse: then the task is fetched instead, and later steps poll. Once the task's
 * time is up, it is fetched a last time.
 */
export async function resubscribe(step: A2AStep, data: A2ARunData): Promise<A2AStepResult> {
  const { connection, scope } = step;
  if (timeLeftMs(step, data) <= 0) return poll(step, { ...data, stream: false }, false);
  const client = await connection.client(scope);
  try {
    return await readStream(step, data, 'resubscribe', async (signal) =>
      client.resubscribeTask(
        { tenant: '', id: data.taskId ?? '' },
        { ...(await connection.requestOptions(scope, client)), signal },
      ),
    );
  } catch (error) {
    if (scope.signal.aborted) throw error;
    const failure = connection.failure(error);
    if (failure.transient) throw failure;
    return poll(step, { ...data, stream: false }, false);
  }
}

/**
 * Reads a stream until the agent answers, or the stream ends; the first step until the stream
 * names the task; a step that heard the agent say something until it pauses; at most a window
 * within the job's deadline and the task's timeout.
 */
async function readStream(
  step: A2AStep,
  data: A2ARunData,
  kind: Kind,
  open: (signal: AbortSignal) => Promise<Events>,
): Promise<A2AStepResult> {
  const { agent, connection, context, scope } = step;
  const stop = new AbortController();
  const window = Math.max(
    0,
    Math.min(STREAM_WINDOW_MS, connection.timeoutMs(scope), timeLeftMs(step, data)),
  );
  const timer = setTimeout(() => stop.abort(), window);
  let flush: ReturnType<typeof setTimeout> | undefined;
  let run = data;
  let view: Task | undefined;
  const artifacts = new Map<string, Artifact>();
  const messages: BotMessage[] = [];
  /** Why reading stopped, unless the window or a pause after words stopped it. */
  let ended: 'named' | 'closed' | undefined;
  const say = (said: Said) => {
    run = said.run;
    if (said.messages.length === 0) return;
    messages.push(...said.messages);
    flush ??= setTimeout(() => stop.abort(), STREAM_FLUSH_MS);
  };
  try {
    for await (const event of await open(AbortSignal.any([scope.signal, stop.signal]))) {
      const payload = event.payload;
      if (!payload) continue;
      if (payload.$case === 'message') {
        return await finish(step, run, outputOfMessage(context.runId, payload.value), messages);
      }
      if (payload.$case === 'task') {
        view = payload.value;
        for (const artifact of view.artifacts) artifacts.set(artifact.artifactId, artifact);
        run = { ...run, ...idsOf(view) };
      } else {
        const { taskId, contextId } = payload.value;
        run = { ...run, taskId: taskId || run.taskId, contextId: contextId || run.contextId };
        view ??= {
          id: taskId,
          contextId,
          status: undefined,
          artifacts: [],
          history: [],
          metadata: undefined,
        };
        if (payload.$case === 'artifactUpdate') applyArtifact(artifacts, payload.value);
        else view = { ...view, status: payload.value.status };
      }
      const current = { ...view, artifacts: [...artifacts.values()] };
      run = sawState(run, current.status?.state, step.now());
      const opening = kind === 'continue' && payload.$case === 'task';
      const output = verdictOf(run, current, context.runId, opening);
      if (payload.$case === 'task') {
        say(taskProgress(run, current, output !== undefined));
      } else if (payload.$case === 'statusUpdate' && phaseOf(current.status?.state) === 'working') {
        say(statusMessage(run, current.status?.message));
      }
      if (output) return await finish(step, run, output, messages);
      if (kind !== 'resubscribe' && run.taskId) {
        ended = 'named';
        stop.abort();
        break;
      }
    }
    ended ??= 'closed';
  } catch (error) {
    if (scope.signal.aborted || !stop.signal.aborted) throw error;
  } finally {
    clearTimeout(timer);
    clearTimeout(flush);
    // Ends the request of a stream left early.
    stop.abort();
  }
  if (scope.signal.aborted) throw scope.signal.reason;
  if (!run.taskId) {
    throw new A2AUnavailableError(agent.name, 'the stream ended before the agent named its task');
  }
  // Named, or paused after saying something: read on at once. Silent for the whole window, or
  // closed while the task works: wait for a push, or poll.
  const readOn = ended === 'named' || (ended === undefined && messages.length > 0);
  return waitFor(step, run, messages, readOn);
}

/** An artifact chunk: a new artifact, a replacement, or parts appended to one. */
function applyArtifact(
  artifacts: Map<string, Artifact>,
  update: { artifact: Artifact | undefined; append: boolean },
): void {
  const artifact = update.artifact;
  if (!artifact) return;
  const before = artifacts.get(artifact.artifactId);
  artifacts.set(
    artifact.artifactId,
    update.append && before ? { ...before, parts: [...before.parts, ...artifact.parts] } : artifact,
  );
}
