import { randomUUID } from 'node:crypto';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoReplyStore } from '../../../src/adapters/aws/dynamoReplyStore.js';
import type { Job } from '../../../src/runtime/index.js';
import { startTestMcpServer, type TestMcpServer } from '../../helpers/mcpTestServer.js';
import { writeProject } from '../../helpers/project.js';
import { userMessage } from '../../helpers/runtime.js';
import { ScriptedOpenAi } from '../../helpers/scriptedOpenAi.js';
import { waitFor } from '../../helpers/waitFor.js';
import {
  type FunctionsHarness,
  lambdaContext,
  type QueueHandler,
  SECRET_PREFIX,
  sqsEvent,
  startFunctionsHarness,
} from './harness.js';

const LLM_KEY = 'sk-scripted';

/** A small project: a flow started by an intent or by the model, ending in a custom action. */
function project(llmUrl: string, mcpUrl: string): Record<string, string> {
  return {
    'config.yml':
      'pipeline:\n  - name: CompactLLMCommandGenerator\n    llm:\n      model_group: main\n',
    'endpoints.yml': `model_groups:
  - id: main
    models:
      - provider: openai
        model: scripted
        api_base: ${llmUrl}
        api_key: \${LLM_KEY}
        max_retries: 0
mcp_servers:
  - name: calculator
    url: ${mcpUrl}
`,
    'domain.yml': `intents:
  - greet
slots:
  name:
    type: text
  a:
    type: float
  b:
    type: float
  total:
    type: any
responses:
  utter_ask_name:
    - text: What is your name?
  utter_total:
    - text: "The total is {total}."
`,
    'data/flows.yml': `flows:
  greet:
    description: Greet the user by name.
    nlu_trigger:
      - intent: greet
    steps:
      - collect: name
      - action: action_welcome
  add_numbers:
    description: Add two numbers with the calculator.
    steps:
      - call: add
        mcp_server: calculator
        mapping:
          input:
            - param: a
              slot: a
            - param: b
              slot: b
          output:
            - slot: total
              value: result.structuredContent.sum
      - action: utter_total
`,
    'custom/actions.ts': `export function action_welcome(context: { slots: Record<string, unknown> }) {
  return { messages: [{ text: \`Welcome, \${String(context.slots.name)}!\` }] };
}
`,
  };
}

/** A conversation id of its own for each test. */
const conversation = (name: string) => `${name}-${randomUUID().slice(0, 8)}`;

describe('worker function', () => {
  let harness: FunctionsHarness;
  let llm: ScriptedOpenAi;
  let mcp: TestMcpServer;
  let handler: QueueHandler;
  let replies: DynamoReplyStore;
  const secrets = mockClient(SecretsManagerClient);
  const run = (jobs: readonly (Job | string)[]) => {
    const event = sqsEvent(jobs, { fifo: true });
    return { event, result: handler(event, lambdaContext('worker')) };
  };
  const repliesTo = async (job: Job) =>
    (await replies.read(job.conversation_id, job.turn_id)).messages.map((m) => m.message.text);

  beforeAll(async () => {
    llm = await ScriptedOpenAi.start();
    mcp = await startTestMcpServer();
    secrets
      .on(GetSecretValueCommand, { SecretId: `${SECRET_PREFIX}LLM_KEY` })
      .resolves({ Name: `${SECRET_PREFIX}LLM_KEY`, SecretString: LLM_KEY });
    harness = await startFunctionsHarness();
    replies = new DynamoReplyStore({
      client: harness.documents,
      tableName: harness.tableName,
      ttlSeconds: 3600,
      now: Date.now,
    });
    ({ handler } = await harness.worker(await writeProject(project(llm.url, mcp.url))));
  });

  afterAll(async () => {
    secrets.restore();
    await llm?.close();
    await mcp?.close();
    await harness?.close();
  });

  it('runs a user message with the model, whose key comes from the secret store', async () => {
    const asked = llm.requests.length;
    llm.reply('start flow greet');
    const job = userMessage(conversation('ada'), 'Hello there');
    const { result } = run([job]);
    expect(await result).toEqual({ batchItemFailures: [] });
    expect(await repliesTo(job)).toEqual(['What is your name?']);
    expect(llm.requests.slice(asked).map((r) => r.headers.authorization)).toEqual([
      `Bearer ${LLM_KEY}`,
    ]);
    llm.verify();
  });

  it('runs the project custom action from the bundled registry', async () => {
    const id = conversation('ada');
    const greet = userMessage(id, '/greet');
    expect(await run([greet]).result).toEqual({ batchItemFailures: [] });
    expect(await repliesTo(greet)).toEqual(['What is your name?']);
    const job = userMessage(id, '/SetSlots(name=Ada)');
    const { result } = run([job]);
    expect(await result).toEqual({ batchItemFailures: [] });
    expect(await repliesTo(job)).toContain('Welcome, Ada!');
  });

  it('calls an MCP tool from a flow, reading its structured result', async () => {
    llm.reply('start flow add_numbers\nset slot a 2\nset slot b 3');
    const job = userMessage(conversation('ada'), 'What is 2 and 3?');
    expect(await run([job]).result).toEqual({ batchItemFailures: [] });
    expect(await repliesTo(job)).toContain('The total is 5.');
    expect(mcp.calls.map((c) => [c.tool, c.arguments])).toEqual([['add', { a: 2, b: 3 }]]);
  });

  it('reports a job whose processing throws, and holds back only its conversation', async () => {
    // A head that no version of Switchboard wrote: loading the conversation fails.
    const broken = conversation('broken');
    await harness.documents.send(
      new PutCommand({
        TableName: harness.tableName,
        Item: { pk: `conv#${broken}`, sk: 'head', version: 'not a number' },
      }),
    );
    const first = userMessage(broken, '/greet');
    const other = userMessage(conversation('cleo'), '/greet');
    const second = userMessage(broken, '/SetSlots(name=Bo)');
    const { event, result } = run([first, other, second]);
    const ids = event.Records.map((r) => r.messageId);
    expect(await result).toEqual({
      batchItemFailures: [{ itemIdentifier: ids[0] }, { itemIdentifier: ids[2] }],
    });
    expect(await repliesTo(other)).toEqual(['What is your name?']);
  });

  it('drops a message that is not a job instead of holding its group back with retries', async () => {
    const { result } = run(['{"type": "mystery"}']);
    expect(await result).toEqual({ batchItemFailures: [] });
  });

  it('leaves a model slower than its time budget to a delayed retry instead of failing the job', async () => {
    llm.reply({ text: 'start flow greet', delayMs: 3000 });
    const job = userMessage(conversation('slow'), 'Hello there');
    const event = sqsEvent([job], { fifo: true });
    // Three seconds left: the job's budget and its model call end well before the Lambda's.
    const context = { ...lambdaContext('worker'), getRemainingTimeInMillis: () => 3000 };
    expect(await handler(event, context)).toEqual({ batchItemFailures: [] });
    expect(await repliesTo(job)).toEqual([]);
    // The retry waits out its delay on the delay queue before it can be received.
    const retried = await waitFor(
      async () => {
        const jobs = await harness.receiveJobs(harness.queues.delayQueueUrl);
        const mine = jobs
          .map((j) => j.job)
          .filter((j) => j.conversation_id === job.conversation_id);
        return mine.length > 0 && mine;
      },
      { description: 'the retry on the delay queue' },
    );
    expect(retried).toMatchObject([
      { type: 'user_message', id: `${job.turn_id}~retry1`, attempt: 1, text: 'Hello there' },
    ]);
  });
});
