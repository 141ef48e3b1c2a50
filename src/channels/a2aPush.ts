/**
 * The receiver of A2A push notifications: `POST /a2a/push/{sender}/{run}`, the URL each A2A run
 * registers with its agent. A notification is authenticated by the run's token (in
 * `X-A2A-Notification-Token`, or `Authorization` when the agent sends it there), must name the
 * run's task, and becomes an `agent_update` job of the run. Its id comes from the body, so a
 * notification delivered twice is applied once; one for a run that is over is answered 200 and
 * changes nothing (an agent notifies every URL its task was ever given).
 */
import { createHash } from 'node:crypto';
import { A2ARunData, isPushToken, PushFormatError, parsePushNotification } from '../a2a/index.js';
import {
  type Channel,
  type ChannelContext,
  HttpError,
  headerOf,
  type Job,
  loadRunState,
  RunRecordError,
  requireContentType,
} from '../runtime/index.js';

export const A2A_PUSH_CHANNEL = 'a2a_push';
/** Content types of notifications: 1.0 agents send `application/a2a+json`, 0.3 ones JSON. */
const JSON_TYPES = ['application/a2a+json', 'application/json'];
const RUN_ID = /^run-[0-9a-f]{24}$/;

export interface A2APushOptions {
  /** The key push tokens are derived from (the same the worker registers them with). */
  readonly pushKey: () => Promise<string>;
}

export function a2aPushChannel(context: ChannelContext, options: A2APushOptions): Channel {
  return {
    name: A2A_PUSH_CHANNEL,
    streams: false,
    routes: [
      {
        method: 'POST',
        path: '/a2a/push/{sender}/{run}',
        // Authenticated by the run's own token, not the API token.
        authenticated: false,
        params: { run: (value) => (RUN_ID.test(value) ? undefined : 'is not a run id') },
        handle: async (request) => {
          const conversationId = request.params.sender ?? '';
          const runId = request.params.run ?? '';
          const token = presentedToken(request);
          if (!isPushToken(await options.pushKey(), conversationId, runId, token)) {
            throw new HttpError(401, 'missing or wrong notification token');
          }
          requireContentType(headerOf(request, 'content-type'), JSON_TYPES);
          const body = request.body ?? '';
          const update = readUpdate(body);
          const job = await updateJob(context, conversationId, runId, update, body);
          // The run has ended (a late or repeated notification): nothing to do, nothing to retry.
          if (!job) return { status: 200, body: { accepted: false, reason: 'the run is over' } };
          await context.queue.enqueue([job]);
          return { status: 202, body: { accepted: true } };
        },
      },
    ],
  };
}

/** The token a notification carries: the A2A header, or the credentials of `Authorization`. */
function presentedToken(request: Parameters<typeof headerOf>[0]): string | undefined {
  const header = headerOf(request, 'x-a2a-notification-token');
  if (header !== undefined) return header;
  return /^\S+\s+(.+)$/.exec(headerOf(request, 'authorization') ?? '')?.[1];
}

function readUpdate(body: string) {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new HttpError(400, 'the body is not JSON');
  }
  try {
    return parsePushNotification(json);
  } catch (error) {
    if (error instanceof PushFormatError) throw new HttpError(400, error.message);
    throw error;
  }
}

/**
 * The job that applies the notification to its run: none when the run is over, 404 when the
 * conversation is unknown or its run waits for another task.
 */
async function updateJob(
  context: ChannelContext,
  conversationId: string,
  runId: string,
  update: ReturnType<typeof parsePushNotification>,
  body: string,
): Promise<Job | undefined> {
  const unknown = new HttpError(
    404,
    `no run of this conversation waits for task ${update.task_id}`,
  );
  const head = await context.store.load(conversationId);
  if (!head) throw unknown;
  const pointer = head.runs[runId];
  if (!pointer) return undefined;
  let run: Awaited<ReturnType<typeof loadRunState>>;
  try {
    run = await loadRunState(context.store, conversationId, runId, pointer);
  } catch (error) {
    if (error instanceof RunRecordError) throw unknown;
    throw error;
  }
  if (!run) throw unknown;
  const data = A2ARunData.safeParse(run.runner);
  // A run that has not heard of its task yet (its first step is still committing) takes it.
  if (!data.success || (data.data.taskId !== undefined && data.data.taskId !== update.task_id)) {
    throw unknown;
  }
  const digest = createHash('sha256').update(body).digest('hex').slice(0, 24);
  return {
    type: 'agent_update',
    id: `${runId}@push-${digest}`,
    conversation_id: conversationId,
    turn_id: run.turnId,
    frame_id: run.frameId,
    run_id: runId,
    update,
  };
}
