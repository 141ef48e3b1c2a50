/**
 * The A2A server: the assistant as an A2A agent that other orchestrators call, on A2A 1.0 and
 * 0.3 over JSON-RPC, served by the runtime's jobs rather than by a process that keeps tasks in
 * memory (as the SDK's `DefaultRequestHandler` does), so that it runs on Lambda as locally.
 *
 * Mapping. A context is a conversation (`a2a:<contextId>`); each inbound message is a user turn of
 * it, a `user_message` job on the channel `a2a`. A task spans the turns sent with its id. After a
 * turn settles, the task is `input-required` while a flow of the conversation waits for the user
 * (the bot's messages are the status message), `completed` when no flow is left (the slots the
 * task set are a data artifact, the bot's texts a text artifact), `failed` when the turn ran the
 * internal-error pattern. A turn that only repaired the conversation (a pattern, no flow) is
 * `input-required`, or `completed` without `include_conversation_repair`. While sub agents run,
 * their filler messages are `working` status updates.
 *
 * Where task state lives. One item per task in its conversation's partition
 * (`sk = a2atask#<taskId>`), with a version of its own: every change is a conditional write on
 * that version, re-read and re-applied when another writer came first, so two messages (or a
 * message and the worker) racing on a task lose no update. The task id carries its context
 * (`<uuid>~<context>`), so a `GetTask` reads one item. A message id is claimed with a conditional
 * write (`sk = a2amsg#<messageId>`, kept `a2a_message_cache_ttl_seconds`): a repeated message
 * joins the turn it started instead of running again.
 *
 * A send becomes a job. `SendMessage` claims the message id, writes the task (created, or
 * continued with the user's message) and queues the turn's job; the worker runs it like any turn,
 * and the channel's output folds each committed batch of the turn (its messages, the events and
 * the conversation's state after the job) into the task item, once per batch. The request waits by
 * reading the task item (backing off from 20 to 250 ms) until the turn is over or the reply wait
 * ends, and answers the task as it stands (still `working` if the turn goes on: the caller reads
 * it again, subscribes, or gets a push notification). Streaming reads the same item: the task
 * first, then each status and artifact event the item records after it, until the turn is over.
 *
 * Streaming is the HTTP seam's: a route may answer a stream of text chunks (server-sent events),
 * which the local server writes as they come and which on AWS a Lambda function URL streams (an
 * API Gateway HTTP API cannot); the web chat channel streams the same way.
 */

export { type Caller, CallerRefusedError, callerCheck } from './auth.js';
export {
  A2A_RPC_PATH,
  AGENT_CARD_PATH,
  API_KEY_HEADER,
  agentCard,
  agentCardJson,
  type CardOptions,
  legacyAgentCard,
} from './card.js';
export { foldBatch } from './fold.js';
export { type HandlerDeps, TaskRequestHandler } from './handler.js';
export { A2A_CHANNEL, conversationOf, conversationOfTask } from './ids.js';
export { type TaskOutputDeps, taskOutput } from './output.js';
export {
  parseTaskRecord,
  TASK_RECORD_VERSION,
  TaskRecord,
  TaskRecordVersionError,
  toTask,
} from './record.js';
export { serveJsonRpc } from './rpc.js';
export { type CardSkill, type CardSource, cardSource } from './skills.js';
export type { A2ATaskStore } from './taskStore.js';
export { TaskContendedError } from './tasks.js';
