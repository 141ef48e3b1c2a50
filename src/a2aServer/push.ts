/**
 * Push notifications, sent by the worker after the commit: whenever a task records updates that a
 * registered target has not had, a channel job of the task's conversation sends them, in order,
 * one POST each, in the shape of the version the target was registered with, with its token
 * (`X-A2A-Notification-Token`) or credentials (`Authorization: <scheme> <credentials>`), and a
 * stable id (`X-A2A-Notification-Id: <taskId>/<seq>`) a receiver can drop repeats by. A target that
 * cannot be reached, or answers 408, 429 or 5xx, gets the rest later, after a growing wait (the
 * job again, delayed); delivery is at least once. Any other refusal is not tried again.
 */
import { createHash } from 'node:crypto';
import { type StreamResponse, StreamResponse as StreamResponseJson } from '@a2a-js/sdk';
import { V1PushNotificationSerializer } from '@a2a-js/sdk/server';
import * as z from 'zod/mini';
import {
  backoffDelay,
  describeError,
  isTransientNetworkFailure,
  isTransientStatus,
  type Logger,
} from '../resilience/index.js';
import type { ChannelWork, Job, JobQueue } from '../runtime/index.js';
import { A2A_CHANNEL } from './ids.js';
import { inwardTargetReason, type Resolve } from './pushAddress.js';
import { missedUpdates, type PushTarget, type TaskRecord, toTask } from './record.js';
import { unseal } from './seal.js';
import type { A2ATaskStore } from './taskStore.js';
import { changeTask } from './tasks.js';

/** Tries of a target's pending notifications before they are given up. */
export const PUSH_ATTEMPTS = 10;
const PUSH_BACKOFF = { baseMs: 1_000, maxMs: 5 * 60_000, jitter: 0.2 };
/** How long one notification may take. */
const PUSH_TIMEOUT_MS = 5_000;

const PushWork = z.object({
  kind: z.literal('push'),
  task_id: z.string(),
  attempt: z.int().check(z.nonnegative()),
});

export interface PushDeps {
  readonly tasks: A2ATaskStore;
  readonly queue: JobQueue;
  readonly now: () => number;
  readonly pushKey?: () => Promise<string>;
  readonly logger?: Logger;
  readonly random?: () => number;
  readonly fetch?: typeof fetch;
  /** Whether targets in the server's own network are sent to (the local stack). */
  readonly pushToOwnNetwork?: boolean;
  /** Resolves a target's host name (DNS by default). */
  readonly resolve?: Resolve;
}

/** Queues the sending of a task's updates its targets have not had (nothing when none). */
export async function queuePushes(
  deps: Pick<PushDeps, 'queue'>,
  conversationId: string,
  record: TaskRecord,
  attempt = 0,
  notBefore?: number,
): Promise<void> {
  const last = record.next_seq - 1;
  if (!record.push.some((t) => t.delivered < last)) return;
  const digest = createHash('sha256').update(record.id).digest('hex').slice(0, 32);
  const job: Job = {
    type: 'channel_work',
    id: `a2a-push-${digest}-${last}-${attempt}`,
    conversation_id: conversationId,
    turn_id: record.turn.id,
    channel: A2A_CHANNEL,
    work: { kind: 'push', task_id: record.id, attempt },
    ...(notBefore !== undefined ? { not_before: notBefore } : {}),
  };
  await deps.queue.enqueue([job]);
}

/** Runs a push job: sends what each target lacks, records it, and queues a retry if needed. */
export async function sendPushes(deps: PushDeps, job: ChannelWork, signal: AbortSignal) {
  const work = PushWork.safeParse(job.work);
  if (!work.success) return;
  const record = await deps.tasks.load(job.conversation_id, work.data.task_id);
  if (!record) return;
  const reached = new Map<string, number>();
  let behind = false;
  for (const target of record.push) {
    const updates = pending(record, target);
    if (updates.length === 0) continue;
    // Resolved once per target and job, not per notification.
    const inward = deps.pushToOwnNetwork
      ? undefined
      : await inwardTargetReason(new URL(target.url), deps.resolve);
    if (inward !== undefined) {
      deps.logger?.warn('a push notification target is refused; it is not sent to', {
        taskId: record.id,
        target: target.id,
        reason: inward,
      });
      reached.set(target.id, updates.at(-1)?.seq ?? target.delivered);
      continue;
    }
    for (const { seq, update } of updates) {
      const sent = await post(deps, record, target, seq, update, signal);
      if (sent === 'retry') {
        behind = true;
        break;
      }
      reached.set(target.id, seq);
    }
  }
  const updated =
    reached.size === 0
      ? record
      : await changeTask(deps.tasks, job.conversation_id, record.id, (r) => ({
          ...r,
          version: r.version + 1,
          push: r.push.map((t) => ({
            ...t,
            delivered: Math.max(t.delivered, reached.get(t.id) ?? -1),
          })),
        }));
  const attempt = work.data.attempt + 1;
  if (behind && updated && attempt < PUSH_ATTEMPTS) {
    const wait = backoffDelay(PUSH_BACKOFF, attempt, deps.random);
    await queuePushes(deps, job.conversation_id, updated, attempt, deps.now() + wait);
  } else if (behind) {
    deps.logger?.warn('gave up on push notifications of a task', {
      taskId: record.id,
      attempts: attempt,
    });
  }
}

/** What a target lacks, numbered; the task as it is when the updates it lacks were dropped. */
function pending(
  record: TaskRecord,
  target: PushTarget,
): { seq: number; update: StreamResponse }[] {
  if (missedUpdates(record, target.delivered)) {
    const task = toTask(record);
    return [{ seq: record.next_seq - 1, update: { payload: { $case: 'task', value: task } } }];
  }
  return record.updates
    .filter((u) => u.seq > target.delivered)
    .map((u) => ({ seq: u.seq, update: StreamResponseJson.fromJSON(u.update) }));
}

/** Sends one notification: sent (or refused for good), or to be tried again later. */
async function post(
  deps: PushDeps,
  record: TaskRecord,
  target: PushTarget,
  seq: number,
  update: StreamResponse,
  signal: AbortSignal,
): Promise<'sent' | 'retry'> {
  const serializer =
    target.protocol === '0.3'
      ? new (await import('@a2a-js/sdk/compat/v0_3/server')).V03PushNotificationSerializer()
      : new V1PushNotificationSerializer();
  // Each update as itself (not the task as it is now), so that a repeat has the same body.
  const { body, contentType } = serializer.serialize(update);
  const secrets = target.sealed && deps.pushKey ? unseal(await deps.pushKey(), target.sealed) : {};
  const headers: Record<string, string> = {
    'content-type': contentType,
    'x-a2a-notification-id': `${record.id}/${seq}`,
    ...(target.scheme && secrets.credentials
      ? { authorization: `${target.scheme} ${secrets.credentials}` }
      : secrets.token
        ? { 'x-a2a-notification-token': secrets.token }
        : {}),
  };
  const fields = { taskId: record.id, target: target.id, seq };
  try {
    const response = await (deps.fetch ?? fetch)(target.url, {
      method: 'POST',
      headers,
      body,
      redirect: 'manual',
      signal: AbortSignal.any([signal, AbortSignal.timeout(PUSH_TIMEOUT_MS)]),
    });
    await response.body?.cancel();
    if (response.ok) return 'sent';
    if (isTransientStatus(response.status)) return 'retry';
    deps.logger?.warn('a push notification was refused; it is not sent again', {
      ...fields,
      status: response.status,
    });
    return 'sent';
  } catch (error) {
    if (isTransientNetworkFailure(error) || signal.aborted) return 'retry';
    // A target that can never be sent to must not hold up the others, nor the conversation.
    deps.logger?.warn('a push notification could not be sent; it is not sent again', {
      ...fields,
      error: describeError(error),
    });
    return 'sent';
  }
}
