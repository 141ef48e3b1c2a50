/**
 * The SDK's request-handler interface over the runtime: the SDK's JSON-RPC transport handlers
 * (1.0 and 0.3) parse requests and call it; it answers from the stored tasks and turns messages
 * into jobs, so that no task lives in a process. One handler serves one request.
 */
import type {
  AgentCard,
  CancelTaskRequest,
  DeleteTaskPushNotificationConfigRequest,
  GetTaskPushNotificationConfigRequest,
  GetTaskRequest,
  ListTaskPushNotificationConfigsRequest,
  ListTaskPushNotificationConfigsResponse,
  ListTasksRequest,
  ListTasksResponse,
  Message,
  SendMessageRequest,
  StreamResponse,
  SubscribeToTaskRequest,
  Task,
  TaskPushNotificationConfig,
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
import { type TaskRecord, TERMINAL, toTask } from './record.js';
import { readTask } from './tasks.js';
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
    return listTasks(this.deps, params);
  }

  async cancelTask(params: CancelTaskRequest): Promise<Task> {
    const record = await this.task(params.id);
    const conversationId = conversationOfTask(record.id) ?? '';
    return toTask(await cancelTask(this.deps, conversationId, record, this.caller.name));
  }

  async createTaskPushNotificationConfig(
    _params: TaskPushNotificationConfig,
  ): Promise<TaskPushNotificationConfig> {
    throw new PushNotificationNotSupportedError('push notifications are not served yet');
  }

  async getTaskPushNotificationConfig(
    _params: GetTaskPushNotificationConfigRequest,
  ): Promise<TaskPushNotificationConfig> {
    throw new PushNotificationNotSupportedError('push notifications are not served yet');
  }

  async listTaskPushNotificationConfigs(
    _params: ListTaskPushNotificationConfigsRequest,
  ): Promise<ListTaskPushNotificationConfigsResponse> {
    throw new PushNotificationNotSupportedError('push notifications are not served yet');
  }

  async deleteTaskPushNotificationConfig(
    _params: DeleteTaskPushNotificationConfigRequest,
  ): Promise<void> {
    throw new PushNotificationNotSupportedError('push notifications are not served yet');
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

  /** The stored task of an id, or the protocol's task-not-found. */
  private async task(taskId: string): Promise<TaskRecord> {
    const conversationId = conversationOfTask(taskId);
    const record =
      conversationId && (await readTask(this.deps.tasks, conversationId, taskId, this.deps.now));
    if (!record) throw new TaskNotFoundError(`task ${taskId} was not found`);
    return record;
  }
}

/** The protocol version a request speaks: 0.3 when it names none, as the SDK takes it. */
function protocolOf(context: ServerCallContext): TaskRecord['protocol'] {
  return context.requestedVersion.startsWith('0.') ? '0.3' : '1.0';
}
