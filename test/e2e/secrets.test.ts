import { randomBytes } from 'node:crypto';
import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import {
  DeleteMessageCommand,
  ListQueuesCommand,
  type Message,
  ReceiveMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import type {
  APIGatewayProxyEventV2,
  APIGatewayProxyStructuredResultV2,
  Context,
} from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { localAwsConfig } from '../../src/adapters/local/emulators.js';
import { loadAssistant } from '../../src/config/index.js';
import { LOCAL_TABLE, startLocalStack } from '../../src/local/index.js';
import { Job } from '../../src/runtime/index.js';
import {
  startTestMcpServer,
  type TestMcpServer,
  testTokenEndpoint,
} from '../helpers/mcpTestServer.js';
import { writeProject } from '../helpers/project.js';
import { ScriptedOpenAi, type ScriptedReply } from '../helpers/scriptedOpenAi.js';
import {
  type FunctionsHarness,
  httpEvent,
  lambdaContext,
  type QueueHandler,
  SECRET_PREFIX,
  sqsEvent,
  startFunctionsHarness,
} from '../integration/functions/harness.js';

// Every emulator this file starts sits behind a proxy that keeps each body sent to it and
// answered by it: what passed through the store and the queues counts, not only what is left.
const traffic = vi.hoisted(() => ({
  store: [] as string[],
  queues: [] as string[],
  endpoints: { store: [] as string[], queues: [] as string[] },
}));
vi.mock('../../src/adapters/local/emulators.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/adapters/local/emulators.js')>();
  const { startRecordingProxy } = await import('../helpers/recordingProxy.js');
  const behindProxy =
    (
      start: () => Promise<{ endpoint: string; close(): Promise<void> }>,
      kind: 'store' | 'queues',
    ) =>
    async () => {
      const emulator = await start();
      const proxy = await startRecordingProxy(emulator.endpoint, (body) =>
        traffic[kind].push(body),
      );
      traffic.endpoints[kind].push(proxy.endpoint);
      return {
        endpoint: proxy.endpoint,
        close: async () => {
          await proxy.close();
          await emulator.close();
        },
      };
    };
  return {
    ...actual,
    startDynalite: behindProxy(() => actual.startDynalite(), 'store'),
    startFauxqs: behindProxy(() => actual.startFauxqs(), 'queues'),
  };
});

/** A credential of the project, referenced as `${name}`, with a value made for this run. */
interface Credential {
  readonly name: string;
  readonly value: string;
}

function credential(name: string): Credential {
  // `+` and `/`, so that its URL-encoded form differs from it.
  const random = (bytes: number) => randomBytes(bytes).toString('base64url');
  return { name, value: `sk-live-${random(12)}+/${random(12)}` };
}

const MODEL_KEY = credential('MODEL_KEY');
const REST_TOKEN = credential('REST_TOKEN');
// The MCP servers' credentials: an API key, an OAuth client secret and the access tokens its
// token endpoint issues, and a per-conversation secret the built-in hook sends as `_meta`.
const TOOLS_KEY = credential('TOOLS_KEY');
const OAUTH_SECRET = credential('OAUTH_SECRET');
const ACCESS_TOKEN = credential('ACCESS_TOKEN');
const CUSTOMER_TOKEN = credential('CUSTOMER_TOKEN');
const CREDENTIALS = [MODEL_KEY, REST_TOKEN, TOOLS_KEY, OAUTH_SECRET, ACCESS_TOKEN, CUSTOMER_TOKEN];

/** The per-conversation secret of a sender, as the store holds it. */
const customerSecret = () => JSON.stringify({ token: CUSTOMER_TOKEN.value });

interface McpPeers {
  readonly tools: TestMcpServer;
  readonly crm: TestMcpServer;
  readonly tokens: ReturnType<typeof testTokenEndpoint>;
}

/** The two MCP servers the project calls, each accepting only its own credential. */
async function startMcpPeers(): Promise<McpPeers> {
  const tokens = testTokenEndpoint({
    clientId: 'switchboard',
    clientSecret: OAUTH_SECRET.value,
    lifetimeSeconds: 3600,
    tokenPrefix: ACCESS_TOKEN.value,
  });
  const tools = await startTestMcpServer({
    authorize: (r) => r.headers.authorization === `Bearer ${TOOLS_KEY.value}`,
  });
  const crm = await startTestMcpServer({ authorize: tokens.accepts, routes: tokens.route });
  cleanups.push(
    () => tools.close(),
    () => crm.close(),
  );
  return { tools, crm, tokens };
}

/** What the MCP servers must have received: their credentials, the customer's token as `_meta`. */
function expectMcpCredentialsReceived(peers: McpPeers): void {
  expect(peers.tools.calls.map((c) => [c.tool, c.headers.authorization])).toEqual([
    ['echo', `Bearer ${TOOLS_KEY.value}`],
  ]);
  expect(peers.tokens.issued).toEqual([`${ACCESS_TOKEN.value}1`]);
  expect(peers.crm.calls.map((c) => [c.headers.authorization, c.meta.customer_token])).toEqual([
    [`Bearer ${ACCESS_TOKEN.value}1`, CUSTOMER_TOKEN.value],
  ]);
}

/**
 * The forms a value may take where it leaks: itself, a distinctive piece of it, URL-encoded,
 * and base64 (standard and URL-safe) at each of the three byte alignments it can have inside
 * longer encoded data.
 */
function tracesOf(value: string): { form: string; text: string }[] {
  const traces = [
    { form: 'value', text: value },
    { form: 'fragment', text: value.slice(12, 24) },
    { form: 'url-encoded', text: encodeURIComponent(value) },
  ];
  for (const shift of [0, 1, 2]) {
    const aligned = value.slice(shift, shift + Math.floor((value.length - shift) / 3) * 3);
    const base64 = Buffer.from(aligned).toString('base64');
    traces.push({ form: `base64+${shift}`, text: base64 });
    traces.push({ form: `base64url+${shift}`, text: Buffer.from(aligned).toString('base64url') });
  }
  return traces;
}

/** Every credential trace found in a place, as `NAME (form) in place`. */
function leaks(places: Readonly<Record<string, string>>): string[] {
  const found: string[] = [];
  for (const [place, content] of Object.entries(places)) {
    for (const { name, value } of CREDENTIALS) {
      for (const { form, text } of tracesOf(value)) {
        if (content.includes(text)) found.push(`${name} (${form}) in ${place}`);
      }
    }
  }
  return found;
}

/** Binary attributes as text too, so a value inside one is found. */
function textOf(data: unknown): string {
  return JSON.stringify(data, (_key, value: unknown) =>
    value instanceof Uint8Array ? Buffer.from(value).toString('utf8') : value,
  );
}

/** Everything written to stdout and stderr from now on (Powertools logs there), kept back. */
function captureOutput(): { text(): string; restore(): void } {
  const chunks: string[] = [];
  const spies = [process.stdout, process.stderr].map((stream) =>
    vi.spyOn(stream, 'write').mockImplementation((chunk: unknown) => {
      chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString());
      return true;
    }),
  );
  return {
    text: () => chunks.join(''),
    restore: () => {
      for (const spy of spies) spy.mockRestore();
    },
  };
}

/** Every item of a table, page by page. */
async function scanAll(endpoint: string, tableName: string): Promise<unknown[]> {
  const client = new DynamoDBClient(localAwsConfig(endpoint));
  const items: unknown[] = [];
  let start: Record<string, unknown> | undefined;
  try {
    do {
      const page = await client.send(
        new ScanCommand({
          TableName: tableName,
          ...(start ? { ExclusiveStartKey: start as never } : {}),
        }),
      );
      items.push(...(page.Items ?? []));
      start = page.LastEvaluatedKey;
    } while (start);
  } finally {
    client.destroy();
  }
  return items;
}

/** Every message left in every queue (DLQs included), with its attributes; delayed ones too. */
async function drainQueues(endpoint: string, prefix: string): Promise<Message[]> {
  const sqs = new SQSClient(localAwsConfig(endpoint));
  const messages: Message[] = [];
  try {
    const { QueueUrls = [] } = await sqs.send(new ListQueuesCommand({ QueueNamePrefix: prefix }));
    expect(QueueUrls.length).toBeGreaterThanOrEqual(4);
    for (const url of QueueUrls) {
      // Retries wait in the delay queue for a second or two; empty twice in a row ends the wait.
      let emptyReceives = 0;
      while (emptyReceives < 2) {
        const { Messages = [] } = await sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: url,
            MaxNumberOfMessages: 10,
            WaitTimeSeconds: 1,
            VisibilityTimeout: 300,
            MessageAttributeNames: ['All'],
            MessageSystemAttributeNames: ['All'],
          }),
        );
        messages.push(...Messages);
        emptyReceives = Messages.length === 0 ? emptyReceives + 1 : 0;
      }
    }
  } finally {
    sqs.destroy();
  }
  return messages;
}

/** Every file under a folder, as text. */
async function filesText(dir: string): Promise<string> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const texts = await Promise.all(
    entries.filter((e) => e.isFile()).map((e) => readFile(path.join(e.parentPath, e.name), 'utf8')),
  );
  return texts.join('\n');
}

/**
 * The project: the model behind `${MODEL_KEY}`, MCP servers behind an API key and an OAuth
 * client secret. Only references are written; the values live in the environment and
 * `.secrets.json`.
 */
function projectFiles(modelUrl: string, peers: McpPeers): Record<string, string> {
  const crmPort = new URL(peers.crm.url).port;
  return {
    'config.yml':
      'pipeline:\n  - name: CompactLLMCommandGenerator\n    llm:\n      model_group: main\n',
    'endpoints.yml': `model_groups:
  - id: main
    models:
      - provider: openai
        model: scripted
        api_base: ${modelUrl}
        api_key: \${MODEL_KEY}
mcp_servers:
  - name: tools
    url: ${peers.tools.url}
    type: http
    api_key: \${TOOLS_KEY}
  - name: crm
    url: ${peers.crm.url}
    type: http
    oauth:
      client_id: switchboard
      client_secret: \${OAUTH_SECRET}
      token_url: http://127.0.0.1:${crmPort}/oauth/token
    conversation_secret:
      secret_id: customers/{sender_id}
      metadata:
        customer_token: token
`,
    'domain.yml': `slots:
  name:
    type: text
responses:
  utter_ask_name:
    - text: What is your name?
  utter_hello:
    - text: Hello, {name}!
`,
    'data/flows.yml': `flows:
  greet:
    description: Greet the user by name.
    steps:
      - collect: name
      - call: echo
        mcp_server: tools
        mapping:
          input:
            - param: text
              slot: name
          output: []
      - call: echo
        mcp_server: crm
        mapping:
          input:
            - param: text
              slot: name
          output: []
      - action: utter_hello
`,
    '.secrets.json': JSON.stringify({
      [MODEL_KEY.name]: MODEL_KEY.value,
      'customers/ada': customerSecret(),
    }),
  };
}

/**
 * The turns every entry point plays: a plain one; the model refusing the key and echoing it;
 * the model failing with the key in its error, then answering on the retry; and a model
 * answer that repeats the key. No user message contains a secret.
 */
const TURNS: readonly { readonly message: string; readonly model: readonly ScriptedReply[] }[] = [
  { message: 'Hi, please greet me', model: ['start flow greet'] },
  {
    message: 'My name is Ada',
    model: [
      {
        status: 401,
        message: `Incorrect API key provided: ${MODEL_KEY.value}. You can find your API key at https://platform.openai.com/account/api-keys.`,
      },
    ],
  },
  {
    message: 'I said: Ada',
    model: [
      {
        status: 500,
        message: `upstream refused the request (Authorization: Bearer ${MODEL_KEY.value})`,
      },
      'set slot name Ada',
    ],
  },
  {
    message: 'Which key do you use?',
    model: [`My API key is ${MODEL_KEY.value}\nAuthorization: Bearer ${MODEL_KEY.value}`],
  },
];

/** What every run must show: the model got the key on every call, and nothing kept a trace. */
function expectKeyReceivedAndNoTraces(
  model: ScriptedOpenAi,
  places: Readonly<Record<string, string>>,
): void {
  model.verify();
  expect(model.requests).toHaveLength(TURNS.flatMap((t) => t.model).length);
  expect(model.requests.map((r) => r.headers.authorization)).toEqual(
    model.requests.map(() => `Bearer ${MODEL_KEY.value}`),
  );
  expect(leaks(places)).toEqual([]);
}

const cleanups: (() => Promise<unknown>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('secrets stay out', () => {
  it('of the table, the queues, the logs, the prompts and the answers of the local stack', async () => {
    const model = await ScriptedOpenAi.start();
    cleanups.push(() => model.close());
    const peers = await startMcpPeers();
    const dir = await writeProject(projectFiles(model.url, peers));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const env = {
      SWITCHBOARD_LOG_LEVEL: 'DEBUG',
      SWITCHBOARD_REST_TOKEN: REST_TOKEN.value,
      ...Object.fromEntries(CREDENTIALS.map((c) => [c.name, c.value])),
    };
    const loaded = await loadAssistant({ projectDir: dir, env });
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.errors));
    const output = captureOutput();
    cleanups.push(async () => output.restore());
    const announced: string[] = [];
    const stack = await startLocalStack({
      assistant: loaded.assistant,
      port: 0,
      env,
      replyWaitMs: 15_000,
      announce: (line) => announced.push(line),
    });
    let stopped = false;
    cleanups.push(async () => stopped || stack.stop());
    const storeEndpoint = traffic.endpoints.store.at(-1) as string;
    const queuesEndpoint = traffic.endpoints.queues.at(-1) as string;
    const call = async (method: string, route: string, body?: unknown) => {
      const response = await fetch(`${stack.url}${route}`, {
        method,
        headers: {
          authorization: `Bearer ${REST_TOKEN.value}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      expect(response.status).toBe(200);
      return response.text();
    };

    const answers: string[] = [];
    for (const turn of TURNS) {
      model.reply(...turn.model);
      answers.push(
        await call('POST', '/webhooks/rest/webhook', { sender: 'ada', message: turn.message }),
      );
    }
    const tracker = await call('GET', '/conversations/ada/tracker');
    const table = await scanAll(storeEndpoint, LOCAL_TABLE);
    const queued = await drainQueues(queuesEndpoint, 'switchboard');
    await stack.stop();
    stopped = true;
    output.restore();

    // The turns ran: asked, failed and told the user, retried, greeted.
    expect(answers.map((a) => (JSON.parse(a) as { text: string }[]).map((m) => m.text))).toEqual([
      ['What is your name?'],
      expect.arrayContaining(['What is your name?']),
      expect.arrayContaining(['Hello, Ada!']),
      expect.any(Array),
    ]);
    expect(table.length).toBeGreaterThan(0);
    expectMcpCredentialsReceived(peers);
    // At DEBUG, yet these turns make the stack log nothing: every line it would log is searched.
    const logs = output.text();
    expectKeyReceivedAndNoTraces(model, {
      'the loaded assistant': JSON.stringify(loaded.assistant),
      'the table (scan)': textOf(table),
      'DynamoDB traffic': traffic.store.join('\n'),
      'messages left in the queues': textOf(queued),
      'SQS traffic': traffic.queues.join('\n'),
      'the log lines': logs,
      'the stack announcements': announced.join('\n'),
      'the prompts': textOf(model.requests.map((r) => r.body)),
      'the webhook answers': answers.join('\n'),
      'the tracker answer': tracker,
    });
  }, 60_000);

  it('of the table, the queues, the logs, the prompts and the answers of the Lambda functions', async () => {
    const model = await ScriptedOpenAi.start();
    cleanups.push(() => model.close());
    const peers = await startMcpPeers();
    const dir = await writeProject(projectFiles(model.url, peers));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const secretsManager = mockClient(SecretsManagerClient);
    cleanups.push(async () => secretsManager.restore());
    for (const { name, value } of [MODEL_KEY, REST_TOKEN, TOOLS_KEY, OAUTH_SECRET]) {
      secretsManager
        .on(GetSecretValueCommand, { SecretId: `${SECRET_PREFIX}${name}` })
        .resolves({ Name: `${SECRET_PREFIX}${name}`, SecretString: value });
    }
    secretsManager
      .on(GetSecretValueCommand, { SecretId: `${SECRET_PREFIX}customers/bo` })
      .resolves({ Name: `${SECRET_PREFIX}customers/bo`, SecretString: customerSecret() });
    const output = captureOutput();
    cleanups.push(async () => output.restore());
    const harness: FunctionsHarness = await startFunctionsHarness({
      POWERTOOLS_LOG_LEVEL: 'DEBUG',
      REPLY_WAIT_MS: '0',
      REST_TOKEN_SECRET: `${SECRET_PREFIX}${REST_TOKEN.name}`,
    });
    cleanups.push(() => harness.close());
    const webhook: (
      event: APIGatewayProxyEventV2,
      context: Context,
    ) => Promise<APIGatewayProxyStructuredResultV2> = (await import('../../functions/webhook.js'))
      .handler;
    const { handler: worker, bundleDir } = await harness.worker(dir);
    const delay: QueueHandler = (await import('../../functions/delay.js')).handler;
    const queuesEndpoint = traffic.endpoints.queues.at(-1) as string;
    const call = async (method: string, route: string, body?: unknown) => {
      const response = await webhook(
        httpEvent(method, route, {
          headers: { authorization: `Bearer ${REST_TOKEN.value}` },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        }),
        lambdaContext('webhook'),
      );
      expect(response.statusCode).toBe(200);
      return String(response.body);
    };
    // What Lambda's event sources do: hand a queue's messages to its function, delete the done.
    const runQueue = async (queueUrl: string, handler: QueueHandler, fifo: boolean) => {
      const { Messages = [] } = await harness.sqs.send(
        new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10 }),
      );
      if (Messages.length === 0) return 0;
      const jobs = Messages.map((m) => Job.parse(JSON.parse(m.Body ?? '')));
      const { batchItemFailures } = await handler(sqsEvent(jobs, { fifo }), lambdaContext('fn'));
      expect(batchItemFailures).toEqual([]);
      for (const m of Messages) {
        await harness.sqs.send(
          new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: m.ReceiptHandle }),
        );
      }
      return Messages.length;
    };
    // Until the model has answered everything scripted and no job is left, for at most 20 s.
    const work = async () => {
      const until = Date.now() + 20_000;
      while (Date.now() < until) {
        const ran =
          (await runQueue(harness.queues.jobsQueueUrl, worker, true)) +
          (await runQueue(harness.queues.delayQueueUrl, delay, false));
        if (ran === 0 && model.remaining === 0) return;
        if (ran === 0) await sleep(250);
      }
      throw new Error('the jobs did not settle within 20 s');
    };

    const answers: string[] = [];
    for (const turn of TURNS) {
      model.reply(...turn.model);
      answers.push(
        await call('POST', '/webhooks/rest/webhook', { sender: 'bo', message: turn.message }),
      );
      await work();
    }
    const tracker = await call('GET', '/conversations/bo/tracker');
    const table = await harness.scanTable();
    const queued = await drainQueues(queuesEndpoint, harness.tableName.split('-')[0] as string);
    output.restore();

    const bots = (JSON.parse(tracker) as { events: { event: string; text?: string }[] }).events
      .filter((e) => e.event === 'bot')
      .map((e) => e.text);
    expect(bots).toContain('Hello, Ada!');
    expectMcpCredentialsReceived(peers);
    const logs = output.text();
    expect(logs).toContain('"message":"job done"');
    expectKeyReceivedAndNoTraces(model, {
      'the deployed bundle': await filesText(bundleDir),
      'the table (scan)': textOf(table),
      'DynamoDB traffic': traffic.store.join('\n'),
      'messages left in the queues': textOf(queued),
      'SQS traffic': traffic.queues.join('\n'),
      'the log lines': logs,
      'the prompts': textOf(model.requests.map((r) => r.body)),
      'the webhook answers': answers.join('\n'),
      'the tracker answer': tracker,
    });
  }, 60_000);
});
