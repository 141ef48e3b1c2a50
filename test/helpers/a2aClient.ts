/**
 * The SDK's own client, pointed at a Switchboard A2A server on one protocol version: the card is
 * fetched as a client of that version fetches it, and only that version's interface is kept.
 */
import { randomUUID } from 'node:crypto';
import {
  AgentCard,
  type Message,
  Role,
  type Task,
  type TaskPushNotificationConfig,
  TaskState,
} from '@a2a-js/sdk';
import {
  type Client,
  ClientFactory,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
} from '@a2a-js/sdk/client';
import { afterAll, beforeAll } from 'vitest';
import { type LocalStack, startLocalStack } from '../../src/local/index.js';
import { assistantFrom, ScriptedLlm } from './dialogue.js';
import { BASE_PROJECT, type ProjectFilesSpec } from './project.js';

export type ProtocolVersion = '1.0' | '0.3';

export async function switchboardClient(
  baseUrl: string,
  version: ProtocolVersion,
  headers: Record<string, string> = {},
): Promise<Client> {
  const fetchImpl: typeof fetch = (input, init) => {
    const merged = new Headers(init?.headers);
    for (const [name, value] of Object.entries(headers)) merged.set(name, value);
    return fetch(input, { ...init, headers: merged });
  };
  const legacyCompat = { enabled: true };
  const resolver = new DefaultAgentCardResolver({ legacyCompat, fetchImpl });
  const card =
    version === '1.0'
      ? await resolver.resolve(baseUrl)
      : (resolver.normalizeAgentCard(
          stripV1(
            (await (await fetchImpl(`${baseUrl}/.well-known/agent-card.json`)).json()) as Record<
              string,
              unknown
            >,
          ),
        ) as AgentCard);
  const only = AgentCard.fromJSON({
    ...(AgentCard.toJSON(card) as object),
    supportedInterfaces: card.supportedInterfaces.filter((i) => i.protocolVersion === version),
  });
  const factory = new ClientFactory({
    transports: [new JsonRpcTransportFactory({ legacyCompat, fetchImpl })],
  });
  return factory.createFromAgentCard(only);
}

/** A 0.3 card as a 0.3-only client reads it: without the 1.0 interfaces served alongside. */
function stripV1(card: Record<string, unknown>): Record<string, unknown> {
  const { supportedInterfaces: _v1, ...legacy } = card;
  return legacy;
}

/** A user message with text, in a context and task when given. */
export function userText(text: string, ids: { contextId?: string; taskId?: string } = {}): Message {
  return {
    messageId: randomUUID(),
    contextId: ids.contextId ?? '',
    taskId: ids.taskId ?? '',
    role: Role.ROLE_USER,
    parts: [
      { content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: '' },
    ],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

export function sendRequest(
  message: Message,
  configuration: Partial<{
    returnImmediately: boolean;
    push: Partial<TaskPushNotificationConfig>;
  }> = {},
) {
  const push = configuration.push;
  return {
    tenant: '',
    message,
    configuration: {
      acceptedOutputModes: [],
      taskPushNotificationConfig: push
        ? { tenant: '', id: '', taskId: '', url: '', token: '', authentication: undefined, ...push }
        : undefined,
      returnImmediately: configuration.returnImmediately ?? false,
    },
    metadata: undefined,
  };
}

/** The task an answer is (the server always answers with a task). */
export function asTask(answer: Message | Task): Task {
  if (!('status' in answer))
    throw new Error(`expected a task, got a message: ${JSON.stringify(answer)}`);
  return answer;
}

/** The texts of a message's parts. */
export function textsOf(message: Message | undefined): string[] {
  return (message?.parts ?? []).flatMap((p) =>
    p.content?.$case === 'text' ? [p.content.value] : [],
  );
}

export { TaskState };

/**
 * The local stack serving the base project with an `a2a_server` block (YAML lines after
 * `a2a_server:`), its commands from `llm`.
 */
export async function a2aStack(
  server: string,
  options: {
    llm: ScriptedLlm;
    env?: Record<string, string>;
    files?: ProjectFilesSpec;
    /** The `--state` folder. */
    dataDir?: string;
  },
): Promise<LocalStack> {
  return startLocalStack({
    assistant: await assistantFrom({
      ...BASE_PROJECT,
      'endpoints.yml': `${BASE_PROJECT['endpoints.yml']}a2a_server:\n${server}`,
      ...options.files,
    }),
    port: 0,
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    env: options.env ?? {},
    llm: options.llm,
    announce: () => {},
  });
}

/**
 * An A2A stack for the enclosing `describe` (started before its tests, stopped after), with the
 * model that gives its commands.
 */
export function a2aStackSuite(
  server: string | (() => string),
  options: {
    env?: Record<string, string>;
    files?: ProjectFilesSpec | (() => ProjectFilesSpec);
  } = {},
): { readonly llm: ScriptedLlm; readonly stack: LocalStack } {
  const llm = new ScriptedLlm();
  let stack: LocalStack | undefined;
  beforeAll(async () => {
    const { files } = options;
    stack = await a2aStack(typeof server === 'string' ? server : server(), {
      ...(options.env ? { env: options.env } : {}),
      ...(files ? { files: typeof files === 'function' ? files() : files } : {}),
      llm,
    });
  }, 30_000);
  afterAll(async () => {
    await stack?.stop();
  });
  return {
    llm,
    get stack(): LocalStack {
      if (!stack) throw new Error('the A2A stack has not started');
      return stack;
    },
  };
}
