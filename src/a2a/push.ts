/**
 * Push notifications from A2A agents: where they go (the deployment's public base URL and our
 * receiver route, one URL per run), the token each run registers (derived by HMAC from the
 * deployment's signing key, so nothing secret is stored), and what an agent's notification says
 * (A2A 1.0 `StreamResponse` JSON, or a 0.3 task or event), reduced to what a run needs.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { StreamResponse, TaskState, type TaskStatus } from '@a2a-js/sdk';
import { legacyPushNotificationToV1StreamResponse } from '@a2a-js/sdk/compat/v0_3';
import * as z from 'zod/mini';
import { WireError } from '../resilience/index.js';
import { textOf } from './messages.js';

/** The receiver's route under the deployment's base URL. */
export const PUSH_ROUTE = '/a2a/push/{conversation}/{run}';
/** The secret that signs push tokens (a `SecretStore` name). */
export const PUSH_KEY_SECRET = 'SWITCHBOARD_A2A_PUSH_KEY';

/** The URL a run registers: `base` (with any path it has) and the receiver's route. */
export function pushUrl(base: string, conversationId: string, runId: string): string {
  const root = base.replace(/\/+$/, '');
  return `${root}/a2a/push/${encodeURIComponent(conversationId)}/${encodeURIComponent(runId)}`;
}

/**
 * The token of one run's notifications: HMAC-SHA256 of the conversation and run (as a JSON pair,
 * so that no two pairs read the same), base64url.
 */
export function pushToken(key: string, conversationId: string, runId: string): string {
  return createHmac('sha256', key)
    .update(`a2a-push\n${JSON.stringify([conversationId, runId])}`)
    .digest('base64url');
}

/** Whether `presented` is the run's token (compared in constant time). */
export function isPushToken(
  key: string,
  conversationId: string,
  runId: string,
  presented: string | undefined,
): boolean {
  if (presented === undefined) return false;
  const expected = Buffer.from(pushToken(key, conversationId, runId));
  const given = Buffer.from(presented);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** What a notification tells a run: which task, where it stands, and what the agent said. */
export const PushUpdate = z.lazy(() =>
  z.object({
    task_id: z.string(),
    /** The task's state (`TaskState` number), when the notification carries one. */
    state: z.optional(z.int()),
    /** A status message of the agent (progress while it works). */
    message: z.optional(z.object({ id: z.string(), text: z.string() })),
  }),
);
export type PushUpdate = z.infer<typeof PushUpdate>;

/**
 * A notification that is not one: why, in a sentence for the 400 answer.
 * Code `A2A_PUSH_MALFORMED`.
 */
export class PushFormatError extends WireError {
  override readonly name = 'PushFormatError';
  override readonly code = 'A2A_PUSH_MALFORMED';
}

/**
 * Reads a notification body: A2A 1.0 (`{"task"|"statusUpdate"|"artifactUpdate"|"message": …}`)
 * or 0.3 (a task, or an event with `kind`). Artifacts are not carried: the run reads the task
 * itself once it has stopped working.
 */
export function parsePushNotification(json: unknown): PushUpdate {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    throw new PushFormatError('the body must be a JSON object');
  }
  let response: StreamResponse;
  try {
    response =
      'kind' in json
        ? legacyPushNotificationToV1StreamResponse(json)
        : StreamResponse.fromJSON(json);
  } catch (error) {
    throw new PushFormatError(`the body is not an A2A notification (${(error as Error).message})`);
  }
  const payload = response.payload;
  switch (payload?.$case) {
    case 'task':
      return update(payload.value.id, payload.value.status);
    case 'statusUpdate':
      return update(payload.value.taskId, payload.value.status);
    case 'artifactUpdate':
      return update(payload.value.taskId, undefined);
    case 'message':
      return update(payload.value.taskId, undefined);
    default:
      throw new PushFormatError('the body carries no task, status or artifact update');
  }
}

function update(taskId: string, status: TaskStatus | undefined): PushUpdate {
  if (!taskId) throw new PushFormatError('the notification names no task');
  const text = textOf(status?.message?.parts);
  return {
    task_id: taskId,
    ...(status && status.state !== TaskState.TASK_STATE_UNSPECIFIED ? { state: status.state } : {}),
    ...(status?.message && text ? { message: { id: status.message.messageId, text } } : {}),
  };
}
