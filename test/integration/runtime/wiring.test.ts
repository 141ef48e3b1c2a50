import { DeleteMessageCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import type {
  APIGatewayProxyEventV2,
  APIGatewayProxyStructuredResultV2,
  Context,
} from 'aws-lambda';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { DynamoConversationStore } from '../../../src/adapters/aws/dynamoConversationStore.js';
import { DynamoReplyStore } from '../../../src/adapters/aws/dynamoReplyStore.js';
import { SqsJobQueue } from '../../../src/adapters/aws/sqsJobQueue.js';
import { DemoModel } from '../../../src/demo/index.js';
import { startLocalStack } from '../../../src/local/index.js';
import { Job, type RuntimeParts } from '../../../src/runtime/index.js';
import { assistantFrom, ScriptedLlm } from '../../helpers/dialogue.js';
import { GREET_FILES, writeProject } from '../../helpers/project.js';
import { waitFor } from '../../helpers/waitFor.js';
import {
  type FunctionsHarness,
  httpEvent,
  lambdaContext,
  sqsEvent,
  startFunctionsHarness,
} from '../functions/harness.js';

// Every runtime this file builds is recorded on its way through the one wiring of its HTTP side,
// which the whole runtime's wiring goes through too.
const wired = vi.hoisted(() => [] as (RuntimeParts & { dialogue?: unknown })[]);
vi.mock('../../../src/runtime/httpRuntime.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../src/runtime/httpRuntime.js')>();
  const createHttpRuntime = (parts: RuntimeParts) => {
    wired.push(parts);
    return actual.createHttpRuntime(parts);
  };
  return { ...actual, createHttpRuntime };
});
// And the dialogue parts of each through the one assembly, with where its model key comes from.
const assembled = vi.hoisted(() => [] as unknown[]);
vi.mock('../../../src/assembly/dialogueParts.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../src/assembly/dialogueParts.js')>();
  const assembleDialogue: typeof actual.assembleDialogue = (options) => {
    assembled.push(options.withoutAccess);
    return actual.assembleDialogue(options);
  };
  return { ...actual, assembleDialogue };
});

const FILES = GREET_FILES;

/** Whether a runtime was built from the DynamoDB and SQS adapters, with or without dialogue. */
function adapterSet(parts: (typeof wired)[number]) {
  return {
    store: parts.store instanceof DynamoConversationStore,
    queue: parts.queue instanceof SqsJobQueue,
    replies: parts.replies instanceof DynamoReplyStore,
    dialogue: parts.dialogue !== undefined,
  };
}

const AWS_ADAPTERS = { store: true, queue: true, replies: true };

describe('one wiring for every entry point', () => {
  let harness: FunctionsHarness | undefined;

  afterAll(async () => {
    await harness?.close();
  });

  it('builds the local stack from the DynamoDB and SQS adapters on the emulators', async () => {
    const stack = await startLocalStack({
      assistant: await assistantFrom(FILES),
      port: 0,
      env: {},
      llm: new ScriptedLlm(),
      announce: () => {},
    });
    try {
      expect(wired.map(adapterSet)).toEqual([{ ...AWS_ADAPTERS, dialogue: true }]);
      expect(assembled).toEqual([{ standIn: expect.any(DemoModel) }]);
      const say = async (message: string) => {
        const response = await fetch(`${stack.url}/webhooks/rest/webhook`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ sender: 'ada', message }),
        });
        return ((await response.json()) as { text: string }[]).map((m) => m.text);
      };
      expect(await say('/greet')).toEqual(['What is your name?']);
      expect(await say('/SetSlots(name=Ada)')).toEqual([
        'Hello, Ada!',
        'Can I help you with anything else?',
      ]);
    } finally {
      await stack.stop();
    }
  }, 30_000);

  it('builds the webhook and worker functions from the same function, against the emulators', async () => {
    harness = await startFunctionsHarness({ REPLY_WAIT_MS: '0' });
    wired.length = 0;
    assembled.length = 0;
    const webhook: (
      event: APIGatewayProxyEventV2,
      context: Context,
    ) => Promise<APIGatewayProxyStructuredResultV2> = (
      await import('../../../functions/webhook.js')
    ).handler;
    const { handler: worker } = await harness.worker(await writeProject(FILES));
    expect(wired.map(adapterSet)).toEqual([
      { ...AWS_ADAPTERS, dialogue: false },
      { ...AWS_ADAPTERS, dialogue: true },
    ]);
    expect(assembled).toEqual([{ keySecret: expect.any(String) }]);

    const post = (message: string) =>
      webhook(
        httpEvent('POST', '/webhooks/rest/webhook', {
          body: JSON.stringify({ sender: 'bo', message }),
        }),
        lambdaContext('webhook'),
      );
    // What Lambda's event source does: take the queued jobs, run the worker, delete them.
    const work = async () => {
      const { sqs, queues } = harness as FunctionsHarness;
      const Messages = await waitFor(
        async () => {
          const received = await sqs.send(
            new ReceiveMessageCommand({ QueueUrl: queues.jobsQueueUrl, WaitTimeSeconds: 1 }),
          );
          return received.Messages?.length ? received.Messages : undefined;
        },
        { description: 'the queued job' },
      );
      const jobs = Messages.map((m) => Job.parse(JSON.parse(m.Body ?? '')));
      const result = await worker(sqsEvent(jobs, { fifo: true }), lambdaContext('worker'));
      expect(result).toEqual({ batchItemFailures: [] });
      for (const m of Messages) {
        await sqs.send(
          new DeleteMessageCommand({
            QueueUrl: queues.jobsQueueUrl,
            ReceiptHandle: m.ReceiptHandle,
          }),
        );
      }
    };
    expect((await post('/greet')).statusCode).toBe(200);
    await work();
    expect((await post('/SetSlots(name=Bo)')).statusCode).toBe(200);
    await work();
    const tracker = await webhook(
      httpEvent('GET', '/conversations/bo/tracker'),
      lambdaContext('webhook'),
    );
    const view = JSON.parse(String(tracker.body)) as { events: { event: string; text?: string }[] };
    expect(view.events.filter((e) => e.event === 'bot').map((e) => e.text)).toEqual([
      'What is your name?',
      'Hello, Bo!',
      'Can I help you with anything else?',
    ]);
  }, 30_000);
});
