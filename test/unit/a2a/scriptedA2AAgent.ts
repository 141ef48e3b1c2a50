/**
 * An A2A agent in process: the SDK's JSON-RPC transport handler over a request handler whose
 * answers a test scripts, reached through a `fetch` function (no socket). It records each call.
 * With it, a step of an A2A run as the runner builds one, over a real `A2AConnection`.
 */
import {
  type GetTaskRequest,
  type Message,
  type SendMessageRequest,
  type StreamResponse,
  type SubscribeToTaskRequest,
  Task,
} from '@a2a-js/sdk';
import {
  type A2ARequestHandler,
  JsonRpcTransportHandler,
  ServerCallContext,
} from '@a2a-js/sdk/server';
import { A2AAgent } from '../../../src/a2a/agent.js';
import { A2AConnection } from '../../../src/a2a/connection.js';
import type { A2ARunData } from '../../../src/a2a/runData.js';
import type { A2AStep } from '../../../src/a2a/step.js';
import type { A2ASubAgent, AgentInput, AgentOutput } from '../../../src/assistant/index.js';
import type { A2AConfiguration } from '../../../src/assistant/schemas/subAgent.js';

type Events = AsyncIterable<StreamResponse> | Iterable<StreamResponse>;

/** What the agent answers; a call it has no answer for fails. */
export interface Script {
  readonly sendMessage?: (request: SendMessageRequest) => Message | Task | Promise<Message | Task>;
  readonly sendMessageStream?: (request: SendMessageRequest) => Events;
  readonly getTask?: (request: GetTaskRequest) => Task | Promise<Task>;
  readonly resubscribe?: (request: SubscribeToTaskRequest) => Events;
}

export interface Call {
  readonly method: string;
  readonly params: unknown;
}

const URL_BASE = 'http://agent.test/a2a';

/** A task from its JSON form. */
export function taskOf(json: Record<string, unknown>): Task {
  return Task.fromJSON({ id: 't-1', contextId: 'c-1', ...json });
}

export const events = {
  task: (task: Task): StreamResponse => ({ payload: { $case: 'task', value: task } }),
  message: (message: Message): StreamResponse => ({
    payload: { $case: 'message', value: message },
  }),
  status: (
    status: Record<string, unknown>,
    ids: { taskId?: string; contextId?: string } = {},
  ): StreamResponse =>
    ({
      payload: {
        $case: 'statusUpdate',
        value: {
          taskId: ids.taskId ?? 't-1',
          contextId: ids.contextId ?? 'c-1',
          status: taskOf({ status }).status,
          metadata: undefined,
        },
      },
    }) as StreamResponse,
  artifact: (
    artifact: Record<string, unknown>,
    append = false,
    ids: { taskId?: string; contextId?: string } = {},
  ): StreamResponse =>
    ({
      payload: {
        $case: 'artifactUpdate',
        value: {
          taskId: ids.taskId ?? 't-1',
          contextId: ids.contextId ?? 'c-1',
          artifact: taskOf({ artifacts: [artifact] }).artifacts[0],
          append,
          lastChunk: false,
          metadata: undefined,
        },
      },
    }) as StreamResponse,
};

function unscripted(method: string): never {
  throw new Error(`the test agent has no answer to ${method}`);
}

async function* each(events: Events): AsyncGenerator<StreamResponse, void, undefined> {
  for await (const event of events) yield event;
}

/** The agent, its fetch and the calls it received. */
export function scriptedA2AAgent(
  script: Script,
  options: {
    streaming?: boolean;
    pushNotifications?: boolean;
    configuration?: Partial<A2AConfiguration>;
  } = {},
) {
  const calls: Call[] = [];
  const card = {
    name: 'shop',
    description: 'A shop agent.',
    version: '1.0.0',
    supportedInterfaces: [{ url: URL_BASE, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
    capabilities: {
      streaming: options.streaming ?? false,
      pushNotifications: options.pushNotifications ?? false,
    },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [],
  };
  const record = (method: string, params: unknown) => calls.push({ method, params });
  const handler = {
    getAgentCard: async () => card,
    sendMessage: async (params: SendMessageRequest) => {
      record('sendMessage', params);
      return (script.sendMessage ?? (() => unscripted('sendMessage')))(params);
    },
    sendMessageStream: (params: SendMessageRequest) => {
      record('sendMessageStream', params);
      return each((script.sendMessageStream ?? (() => unscripted('sendMessageStream')))(params));
    },
    getTask: async (params: GetTaskRequest) => {
      record('getTask', params);
      return (script.getTask ?? (() => unscripted('getTask')))(params);
    },
    resubscribe: (params: SubscribeToTaskRequest) => {
      record('resubscribe', params);
      return each((script.resubscribe ?? (() => unscripted('resubscribe')))(params));
    },
  } as unknown as A2ARequestHandler;
  const transport = new JsonRpcTransportHandler(handler);

  const fetchImpl: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const context = new ServerCallContext({
      requestedVersion: request.headers.get('A2A-Version') ?? undefined,
    });
    const answer = await transport.handle(await request.text(), context);
    if (!(Symbol.asyncIterator in answer)) {
      return new Response(JSON.stringify(answer), {
        headers: { 'content-type': 'application/json' },
      });
    }
    const signal = init?.signal;
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        const encoder = new TextEncoder();
        const aborted = () => controller.error(signal?.reason);
        signal?.addEventListener('abort', aborted, { once: true });
        try {
          for await (const event of answer) {
            if (signal?.aborted) return;
            controller.enqueue(encoder.encode(`data: ${JSON.stringify(event)}\n\n`));
          }
          controller.close();
        } catch (error) {
          controller.error(error);
        } finally {
          signal?.removeEventListener('abort', aborted);
        }
      },
    });
    return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  };

  const agent: A2ASubAgent = {
    name: 'shop',
    description: 'A shop agent.',
    dir: 'sub_agents/shop',
    protocol: 'A2A',
    agentCard: { kind: 'file', file: 'card.json', card },
    configuration: {
      agent_card: 'card.json',
      max_polling_time: 60,
      polling_initial_delay: 0.5,
      task_timeout: 600,
      max_retries: 0,
      ...options.configuration,
    } as A2AConfiguration,
  };
  return { agent, fetch: fetchImpl, calls };
}

/** The calls of one method, by their params. */
export function callsOf(calls: readonly Call[], method: string): unknown[] {
  return calls.filter((c) => c.method === method).map((c) => c.params);
}

/** A step of a run with `agent`, at `now()`; it records the runs it cancelled. */
export function stepWith(
  agent: A2ASubAgent,
  fetchImpl: typeof fetch,
  options: {
    now?: () => number;
    processInput?: (input: AgentInput) => Promise<AgentInput>;
    processOutput?: (output: AgentOutput) => Promise<AgentOutput>;
    deadline?: number;
    signal?: AbortSignal;
  } = {},
) {
  const cancelled: A2ARunData[] = [];
  const now = options.now ?? (() => Date.now());
  const connection = new A2AConnection({
    agent,
    secrets: { get: async (name) => unscripted(`secret ${name}`) },
    now,
    fetch: fetchImpl,
  });
  const custom = new A2AAgent(agent);
  if (options.processInput) custom.processInput = options.processInput;
  if (options.processOutput) custom.processOutput = options.processOutput;
  const signal = options.signal ?? new AbortController().signal;
  const step: A2AStep = {
    agent,
    connection,
    context: { conversationId: 'alice', runId: 'run-1', signal },
    scope: { signal, ...(options.deadline !== undefined ? { deadline: options.deadline } : {}) },
    custom: () => custom,
    now,
    cancelTask: async (data) => {
      cancelled.push(data);
    },
  };
  return { step, cancelled };
}

/** A run's data after its message went out. */
export function sentRun(extra: Partial<A2ARunData> = {}): A2ARunData {
  return {
    agentId: 'shop',
    messageId: 'msg-1',
    polls: 0,
    push: false,
    shown: [],
    ...extra,
  };
}
