/**
 * The SDK's request-handler interface over the runtime: the SDK's JSON-RPC transport handlers
 * (1.0 and 0.3) parse requests and call it; it answers from the stored tasks and turns messages
 * into jobs, so that no task lives in a process. One handler serves one request.
 */
import {
  type AgentCard,
  type CancelTaskRequest,
  type DeleteTaskPushNotificationConfigRequest,
  type GetTaskPushNotificationConfigRequest,
  type GetTaskRequest,
  type ListTaskPushNotificationConfigsRequest,
  type ListTaskPushNotificationConfigsResponse,
  type ListTasksRequest,
  type ListTasksResponse,
  type Message,
  Role,
  type SendMessageRequest,
  type StreamResponse,
  type SubscribeToTaskRequest,
  type Task,
  type TaskPushNotificationConfig,
} from '@a2a-js/sdk';
import {
  ExtendedAgentCardNotConfiguredError,
  PushNotificationNotSupportedError,
  TaskNotFoundError,
  UnsupportedOperationError,
} from '@a2a-js/sdk/errors';
import type { A2ARequestHandler, ServerCallContext } from '@a2a-js/sdk/server';
import { type AcceptDeps, acceptMessage } from './accept.js';
import type { Caller } from './auth.js';
import { cancelTask } from './cancel.js';
import { conversationOfTask } from './ids.js';
import { listTasks } from './list.js';
import { configOf, pushTargetOf, targetOf, withoutTarget, withTarget } from './pushTargets.js';
import { seenBy, type TaskRecord, TERMINAL, toTask } from './record.js';
import { changeTask, readTask } from './tasks.js';
import { part } from './updates.js';
import { followTask, turnOver, type WatchDeps, watchTask } from './watch.js';

export interface HandlerDeps extends AcceptDeps, WatchDeps {
  /** How long a blocking `SendMessage` waits for its turn before it answers the task as it is. */
  readonly replyWaitMs: number;
  /** How long a stream or subscription goes on at most; the caller subscribes again after. */
  readonly streamLimitMs: number;
}

export class TaskRequestHandler implements A2ARequestHandler {
  constructor(
    private readonly deps: HandlerDeps,
    private readonly card: AgentCard,
    private readonly caller: Caller,
  ) {}

  async getAgentCard(): Promise<AgentCard> {
    return this.card;
  }

  async getAuthenticatedExtendedAgentCard(): Promise<AgentCard> {
    throw new ExtendedAgentCardNotConfiguredError('this agent has no extended card');
  }

  async sendMessage(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): Promise<Task | Message> {
    const { deps } = this;
    const health = healthAnswer(params);
    if (health) return health;
    const accepted = await acceptMessage(params, deps, protocolOf(context), this.caller.name);
    const historyLength = params.configuration?.historyLength;
    if (params.configuration?.returnImmediately) return toTask(accepted.record, { historyLength });
    const record = await watchTask(
      deps,
      accepted.conversationId,
      accepted.taskId,
      (r) => turnOver(r, accepted.turnId),
      deps.now() + deps.replyWaitMs,
    );
    return toTask(record ?? accepted.record, { historyLength });
  }

  async *sendMessageStream(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    const { deps } = this;
    const health = healthAnswer(params);
    if (health) {
      yield { payload: { $case: 'message', value: health } };
      return;
    }
    const accepted = await acceptMessage(params, deps, protocolOf(context), this.caller.name);
    const historyLength = params.configuration?.historyLength;
    yield { payload: { $case: 'task', value: toTask(accepted.record, { historyLength }) } };
    yield* followTask(
      deps,
      accepted.record,
      accepted.conversationId,
      (r) => turnOver(r, accepted.turnId),
      deps.now() + deps.streamLimitMs,
    );
  }

  async getTask(params: GetTaskRequest): Promise<Task> {
    return toTask(await this.task(params.id), { historyLength: params.historyLength });
  }

  async listTasks(params: ListTasksRequest): Promise<ListTasksResponse> {
    return listTasks(this.deps, params, this.caller.name);
  }

  async cancelTask(params: CancelTaskRequest): Promise<Task> {
    const record = await this.task(params.id);
    const conversationId = conversationOfTask(record.id) ?? '';
    return toTask(await cancelTask(this.deps, conversationId, record, this.caller.name));
  }

  async createTaskPushNotificationConfig(
    params: TaskPushNotificationConfig,
    context: ServerCallContext,
  ): Promise<TaskPushNotificationConfig> {
    const record = await this.task(params.taskId);
    const target = await pushTargetOf(this.deps, params, protocolOf(context), record.next_seq - 1);
    const conversationId = conversationOfTask(record.id) ?? '';
    const updated = await changeTask(this.deps.tasks, conversationId, record.id, (r) =>
      withTarget(r, { ...target, delivered: r.next_seq - 1 }),
    );
    if (!updated) throw new TaskNotFoundError(`task ${record.id} was not found`);
    return configOf(this.deps, updated, targetOf(updated, target.id));
  }

  async getTaskPushNotificationConfig(
    params: GetTaskPushNotificationConfigRequest,
  ): Promise<TaskPushNotificationConfig> {
    const record = await this.pushTask(params.taskId);
    return configOf(this.deps, record, targetOf(record, params.id));
  }

  async listTaskPushNotificationConfigs(
    params: ListTaskPushNotificationConfigsRequest,
  ): Promise<ListTaskPushNotificationConfigsResponse> {
    const record = await this.pushTask(params.taskId);
    const configs = await Promise.all(record.push.map((t) => configOf(this.deps, record, t)));
    return { configs, nextPageToken: '' };
  }

  async deleteTaskPushNotificationConfig(
    params: DeleteTaskPushNotificationConfigRequest,
  ): Promise<void> {
    const record = await this.pushTask(params.taskId);
    targetOf(record, params.id);
    await changeTask(this.deps.tasks, conversationOfTask(record.id) ?? '', record.id, (r) =>
      withoutTarget(r, params.id),
    );
  }

  /** The task, then its updates until its current turn is over. */
  async *resubscribe(
    params: SubscribeToTaskRequest,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    const record = await this.task(params.id);
    if (TERMINAL.has(record.state)) {
      throw new UnsupportedOperationError(
        `task ${record.id} is ${record.state}: it has no more updates`,
      );
    }
    yield { payload: { $case: 'task', value: toTask(record) } };
    const turn = record.turn.id;
    yield* followTask(
      this.deps,
      record,
      conversationOfTask(record.id) ?? '',
      (r) => turnOver(r, turn),
      this.deps.now() + this.deps.streamLimitMs,
    );
  }

  /** The task of a push config request, where push notifications are served. */
  private async pushTask(taskId: string): Promise<TaskRecord> {
    if (!this.deps.pushEnabled) {
      throw new PushNotificationNotSupportedError('this agent sends no push notifications');
    }
    return this.task(taskId);
  }

  /** The stored task of an id, or the protocol's task-not-found. */
  private async task(taskId: string): Promise<TaskRecord> {
    const conversationId = conversationOfTask(taskId);
    const record =
      conversationId && (await readTask(this.deps.tasks, conversationId, taskId, this.deps.now));
    if (!record || !seenBy(record, this.caller.name)) {
      throw new TaskNotFoundError(`task ${taskId} was not found`);
    }
    return record;
  }
}

/**
 * The answer to an orchestrator's health check (a message whose metadata says
 * `health_check: true`, as Switchboard and Rasa send before first use): a message at once, no turn.
 */
function healthAnswer(params: SendMessageRequest): Message | undefined {
  const message = params.message;
  if (message?.metadata?.health_check !== true) return undefined;
  return {
    messageId: `${message.messageId}#health`,
    contextId: message.contextId,
    taskId: '',
    role: Role.ROLE_AGENT,
    parts: [part({ $case: 'text', value: 'ready' })],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

/** The protocol version a request speaks: 0.3 when it names none, as the SDK takes it. */
function protocolOf(context: ServerCallContext): TaskRecord['protocol'] {
  return context.requestedVersion.startsWith('0.') ? '0.3' : '1.0';
}
