/**
 * The demo agents' push notifications: the SDK's serializers and the stored configs, sent one
 * after another in the background, logged through the stack's logger (nothing at the default
 * level). A receiver that answers `{"accepted": false}` — a Switchboard run that is over — gets no
 * more notifications for that config: it is deleted.
 */
import type { StreamResponse, Task } from '@a2a-js/sdk';
import { V03PushNotificationSerializer } from '@a2a-js/sdk/compat/v0_3/server';
import {
  type PushNotificationSender,
  type PushNotificationStore,
  type ServerCallContext,
  V1PushNotificationSerializer,
} from '@a2a-js/sdk/server';
import * as z from 'zod';
import { describeError, type Logger } from '../resilience/index.js';

const PUSH_TIMEOUT_MS = 5_000;
const Answer = z.looseObject({ accepted: z.boolean().optional() });

export class DemoPushSender implements PushNotificationSender {
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: PushNotificationStore,
    private readonly logger: Logger,
  ) {}

  async send(update: StreamResponse, context: ServerCallContext, task?: Task): Promise<void> {
    const taskId = task?.id ?? taskIdOf(update);
    if (!taskId) return;
    // In the background and in order: the task's stream does not wait for its receivers.
    this.chain = this.chain.then(() => this.deliver(update, context, taskId, task));
  }

  private async deliver(
    update: StreamResponse,
    context: ServerCallContext,
    taskId: string,
    task: Task | undefined,
  ): Promise<void> {
    const stored = this.store.loadWithMetadata
      ? await this.store.loadWithMetadata(taskId, context)
      : (await this.store.load(taskId, context)).map((config) => ({ config, wireVersion: '1.0' }));
    for (const { config, wireVersion } of stored) {
      const serializer =
        wireVersion === '0.3'
          ? new V03PushNotificationSerializer()
          : new V1PushNotificationSerializer();
      const { body, contentType } = serializer.serialize(update, task);
      const fields = { taskId, url: config.url };
      try {
        const response = await fetch(config.url, {
          method: 'POST',
          headers: {
            'content-type': contentType,
            ...(config.authentication?.scheme && config.authentication.credentials
              ? {
                  authorization: `${config.authentication.scheme} ${config.authentication.credentials}`,
                }
              : config.token
                ? { 'x-a2a-notification-token': config.token }
                : {}),
          },
          body,
          signal: AbortSignal.timeout(PUSH_TIMEOUT_MS),
        });
        const answer = Answer.safeParse(await response.json().catch(() => ({})));
        if (!response.ok) {
          this.logger.info('push notification refused', { ...fields, status: response.status });
        } else if (answer.success && answer.data.accepted === false) {
          await this.store.delete(taskId, context, config.id);
          this.logger.debug('the receiver’s run is over: no more notifications to it', fields);
        } else {
          this.logger.debug('push notification sent', fields);
        }
      } catch (error) {
        this.logger.info('push notification failed', { ...fields, error: describeError(error) });
      }
    }
  }
}

function taskIdOf(update: StreamResponse): string | undefined {
  const payload = update.payload;
  if (payload?.$case === 'task') return payload.value.id;
  if (payload?.$case === 'message') return payload.value.taskId || undefined;
  return payload?.value.taskId;
}
