import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoConversationStore } from '../src/adapters/aws/dynamoConversationStore.js';
import { DynamoReplyStore } from '../src/adapters/aws/dynamoReplyStore.js';
import { SqsJobQueue } from '../src/adapters/aws/sqsJobQueue.js';
import type { StoreMeter } from '../src/adapters/aws/storeMeter.js';
import {
  ensureQueues,
  ensureTable,
  localAwsConfig,
  startDynalite,
  startFauxqs,
} from '../src/adapters/local/emulators.js';
import { standardChannels } from '../src/channels/index.js';
import { loadAssistant } from '../src/config/index.js';
import { type LlmPort, NO_ACTIONS } from '../src/dialogue/index.js';
import { startLocalStack } from '../src/local/index.js';
import { createRuntime, type Job, NO_RUNNERS } from '../src/runtime/index.js';
import { round } from './harness.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** A zero-latency model that walks the call-back flow: one turn in, one question out. */
const instantModel: LlmPort = {
  complete: async (request) => {
    const prompt = request.messages.map((m) => m.content).join('\n');
    const asking = /asking for (\w+)/.exec(prompt)?.[1];
    if (asking === 'customer_name') return { content: 'set slot customer_name Ada' };
    if (asking === 'phone_number') return { content: 'set slot phone_number 0151 2345678' };
    if (asking === 'callback_time') return { content: 'set slot callback_time morning' };
    return { content: 'start flow request_callback' };
  },
};

async function exampleAssistant() {
  const loaded = await loadAssistant({ projectDir: root });
  if (!loaded.ok) throw new Error('the example assistant does not validate');
  return loaded.assistant;
}

/**
 * DynamoDB requests and bytes per job, and job latency, for conversations of 10, 1,000 and
 * 10,000 prior events (dynalite in process; latency includes its ~ms per request).
 */
export async function jobCostBenchmark(): Promise<Record<string, unknown>> {
  const assistant = await exampleAssistant();
  const [dynalite, fauxqs] = await Promise.all([startDynalite(), startFauxqs()]);
  const dynamo = new DynamoDBClient(localAwsConfig(dynalite.endpoint));
  const sqs = new SQSClient(localAwsConfig(fauxqs.endpoint));
  try {
    await ensureTable(dynamo, 'bench');
    const queues = await ensureQueues(sqs, { prefix: 'bench' });
    const documents = DynamoDBDocumentClient.from(dynamo, {
      marshallOptions: { removeUndefinedValues: true },
    });
    const meter: StoreMeter = { reads: 0, writes: 0, bytesRead: 0, bytesWritten: 0 };
    const now = () => Date.now();
    const store = new DynamoConversationStore({
      client: documents,
      tableName: 'bench',
      ttlSeconds: 3600,
      now,
      meter,
    });
    const runtime = createRuntime({
      store,
      queue: new SqsJobQueue({
        client: sqs,
        jobsQueueUrl: queues.jobsQueueUrl,
        delayQueueUrl: queues.delayQueueUrl,
        now,
      }),
      replies: new DynamoReplyStore({
        client: documents,
        tableName: 'bench',
        ttlSeconds: 3600,
        now,
      }),
      channels: standardChannels,
      now,
      newId: randomUUID,
      sleep: async () => {},
      http: { replyWaitMs: 0 },
      dialogue: {
        assistant,
        models: () => instantModel,
        actions: NO_ACTIONS,
        mcp: { callTool: async () => ({ isError: true }) },
        runners: NO_RUNNERS,
        random: () => 0,
      },
    });
    const signal = new AbortController().signal;
    let seq = 0;
    const turn = (conversation: string) => {
      seq += 1;
      const job: Job = {
        type: 'user_message',
        id: `b${seq}`,
        conversation_id: conversation,
        turn_id: `b${seq}`,
        text: 'hello',
        channel: 'rest',
      };
      return runtime.processJob(job, signal);
    };
    const results: Record<string, unknown> = {};
    for (const target of [10, 1_000, 10_000]) {
      const conversation = `len-${target}`;
      while (((await store.load(conversation))?.nextSeq ?? 0) < target) await turn(conversation);
      const prior = (await store.load(conversation))?.nextSeq ?? 0;
      const runs = 50;
      const start = { ...meter };
      const latencies: number[] = [];
      for (let i = 0; i < runs; i++) {
        const t0 = performance.now();
        await turn(conversation);
        latencies.push(performance.now() - t0);
      }
      latencies.sort((a, b) => a - b);
      results[`events_${target}`] = {
        priorEvents: prior,
        readsPerJob: round((meter.reads - start.reads) / runs, 2),
        writesPerJob: round((meter.writes - start.writes) / runs, 2),
        bytesReadPerJob: Math.round((meter.bytesRead - start.bytesRead) / runs),
        bytesWrittenPerJob: Math.round((meter.bytesWritten - start.bytesWritten) / runs),
        jobLatencyMedianMs: round(latencies[Math.floor(runs / 2)] ?? 0, 2),
        jobLatencyP95Ms: round(latencies[Math.floor(runs * 0.95)] ?? 0, 2),
      };
    }
    return results;
  } finally {
    dynamo.destroy();
    sqs.destroy();
    await Promise.all([dynalite.close(), fauxqs.close()]);
  }
}

/** Sustained turns per second of the whole local stack (HTTP, queue, worker) with 100 conversations. */
export async function localThroughputBenchmark(): Promise<Record<string, unknown>> {
  const assistant = await exampleAssistant();
  const stack = await startLocalStack({
    assistant,
    port: 0,
    env: {},
    llm: instantModel,
    announce: () => {},
    replyWaitMs: 30_000,
  });
  try {
    const conversations = 100;
    const turnsEach = 5;
    const post = async (sender: string, message: string) => {
      const response = await fetch(`${stack.url}/webhooks/rest/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ sender, message }),
      });
      if (response.status !== 200) throw new Error(`webhook answered ${response.status}`);
      await response.json();
    };
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: conversations }, async (_, c) => {
        for (let t = 0; t < turnsEach; t++) await post(`load-${c}`, `message ${t}`);
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    return {
      conversations,
      turns: conversations * turnsEach,
      seconds: round(seconds, 2),
      turnsPerSecond: round((conversations * turnsEach) / seconds, 1),
      meanTurnLatencyMs: round((seconds * 1000 * conversations) / (conversations * turnsEach), 1),
    };
  } finally {
    await stack.stop();
  }
}
