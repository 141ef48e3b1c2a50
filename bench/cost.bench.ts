import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { SQSClient } from '@aws-sdk/client-sqs';
import { HANDLERS } from '../infra/handlerBundles.js';
import { loadAssistant, projectEnvironment } from '../src/config/index.js';
import { startDemoPeers } from '../src/demo/index.js';
import { startLocalStack } from '../src/local/index.js';
import { round } from './harness.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * List prices in us-east-1 (USD), read from the AWS pricing pages in December 2026: DynamoDB
 * on-demand request units (https://aws.amazon.com/dynamodb/pricing/on-demand/), SQS FIFO
 * requests, each 64 KB of payload one request (https://aws.amazon.com/sqs/pricing/), and Lambda
 * on Arm (https://aws.amazon.com/lambda/pricing/). Free tiers are left out.
 */
export const PRICES = {
  dynamoWriteUnit: 0.625 / 1e6,
  dynamoReadUnit: 0.125 / 1e6,
  sqsFifoRequest: 0.5 / 1e6,
  lambdaRequest: 0.2 / 1e6,
  lambdaArmGbSecond: 0.0000133334,
} as const;

/** The README's demo conversation, one conversation, turn by turn. */
const DEMO_TURNS = [
  'Hi, can someone call me back?',
  'Ada',
  '0151 2345678',
  '/SetSlots(callback_time=afternoon)',
  'Could I finance a car?',
  '25000',
  '/SetSlots(loan_term_months=48)',
  'Can you recommend an electric SUV under 50000?',
  'Tell me about the Aurora EV',
  'That is all, thanks',
  'I would like to test drive it in Hamburg',
  'Monday at 10',
  '/SetSlots(confirm_booking=true)',
  'I would like to buy it',
  'Touring',
];

/** The functions a turn invokes, by the handler names of `infra/handlerBundles.ts`. */
type Fn = 'webhook' | 'worker' | 'delay' | 'a2aPush';

interface Usage {
  dynamoReadUnits: number;
  dynamoWriteUnits: number;
  dynamoRequests: number;
  sqsRequests: number;
  invocations: Record<Fn, number>;
  durationMs: Record<Fn, number>;
}

const emptyUsage = (): Usage => ({
  dynamoReadUnits: 0,
  dynamoWriteUnits: 0,
  dynamoRequests: 0,
  sqsRequests: 0,
  invocations: { webhook: 0, worker: 0, delay: 0, a2aPush: 0 },
  durationMs: { webhook: 0, worker: 0, delay: 0, a2aPush: 0 },
});

/**
 * What the demo conversation costs on AWS, turn by turn: DynamoDB read and write units, SQS
 * requests, and the Lambda invocations the turn makes with how long each runs, measured on the
 * local stack (the same runtime on dynalite and fauxqs, with the demo peers and the scripted demo
 * model), and those figures in dollars per 1,000 turns at `PRICES`, beside the figures of
 * `bench/baselines/cost.json`. Durations are this machine's in one process, not Lambda's.
 */
export async function costBenchmark(): Promise<Record<string, unknown>> {
  const loaded = await loadAssistant({ projectDir: root });
  if (!loaded.ok) throw new Error('the example assistant does not validate');
  const assistant = loaded.assistant;
  // The demo peers' credentials from the project's .env, as `npm start` reads them; no model
  // key, so the scripted demo model plays the conversation.
  const env = await projectEnvironment(root, { SWITCHBOARD_LOG_LEVEL: 'ERROR' });
  const demo = await startDemoPeers(assistant, env);
  const meter = new AwsMeter();
  const stack = await startLocalStack({
    assistant,
    port: 0,
    env,
    announce: () => {},
    instrument: ({ dynamo, sqs }) => {
      meter.meterDynamo(dynamo);
      meter.meterSqs(sqs);
    },
  });
  try {
    const turns: Record<string, unknown>[] = [];
    const total = emptyUsage();
    for (const [index, text] of DEMO_TURNS.entries()) {
      const before = structuredClone(meter.usage);
      const started = performance.now();
      const response = await fetch(`${stack.url}/webhooks/rest/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ sender: 'bench-cost', message: text }),
      });
      if (!response.ok) throw new Error(`turn ${index + 1} answered HTTP ${response.status}`);
      await response.json();
      meter.webhook(performance.now() - started);
      // Jobs the turn leaves behind (an agent's next step, a push) belong to it too.
      await meter.settled();
      const usage = difference(meter.usage, before);
      add(total, usage);
      turns.push({ turn: index + 1, text, ...rounded(usage), usd: round(dollars(usage), 8) });
    }
    const perThousand = scaled(total, 1000 / DEMO_TURNS.length);
    const now = { ...rounded(perThousand), usd: round(dollars(perThousand), 4) };
    return {
      prices: PRICES,
      memoryMb: Object.fromEntries(
        (['webhook', 'worker', 'delay', 'a2aPush'] as const).map((fn) => [
          fn,
          HANDLERS[fn].memoryMb,
        ]),
      ),
      perThousandTurns: { before: await baseline(), now },
      turns,
    };
  } finally {
    await stack.stop();
    await demo.close();
  }
}

/** The per-1,000-turn figures kept from before the cost work, if the file is there. */
async function baseline(): Promise<unknown> {
  try {
    const file = path.join(root, 'bench', 'baselines', 'cost.json');
    return JSON.parse(await readFile(file, 'utf8'));
  } catch {
    return undefined;
  }
}

function dollars(usage: Usage): number {
  let lambda = 0;
  for (const fn of Object.keys(usage.invocations) as Fn[]) {
    const gbSeconds = (usage.durationMs[fn] / 1000) * (HANDLERS[fn].memoryMb / 1024);
    lambda += usage.invocations[fn] * PRICES.lambdaRequest + gbSeconds * PRICES.lambdaArmGbSecond;
  }
  return (
    usage.dynamoReadUnits * PRICES.dynamoReadUnit +
    usage.dynamoWriteUnits * PRICES.dynamoWriteUnit +
    usage.sqsRequests * PRICES.sqsFifoRequest +
    lambda
  );
}

function difference(after: Usage, before: Usage): Usage {
  return scaledSum(after, before, -1);
}

function add(total: Usage, usage: Usage): void {
  Object.assign(total, scaledSum(total, usage, 1));
}

function scaled(usage: Usage, factor: number): Usage {
  return scaledSum(emptyUsage(), usage, factor);
}

/** `a + factor * b`, field by field. */
function scaledSum(a: Usage, b: Usage, factor: number): Usage {
  const fns = Object.keys(a.invocations) as Fn[];
  return {
    dynamoReadUnits: a.dynamoReadUnits + factor * b.dynamoReadUnits,
    dynamoWriteUnits: a.dynamoWriteUnits + factor * b.dynamoWriteUnits,
    dynamoRequests: a.dynamoRequests + factor * b.dynamoRequests,
    sqsRequests: a.sqsRequests + factor * b.sqsRequests,
    invocations: Object.fromEntries(
      fns.map((fn) => [fn, a.invocations[fn] + factor * b.invocations[fn]]),
    ) as Record<Fn, number>,
    durationMs: Object.fromEntries(
      fns.map((fn) => [fn, a.durationMs[fn] + factor * b.durationMs[fn]]),
    ) as Record<Fn, number>,
  };
}

function rounded(usage: Usage) {
  const fns = Object.keys(usage.invocations) as Fn[];
  return {
    dynamoReadUnits: round(usage.dynamoReadUnits, 1),
    dynamoWriteUnits: round(usage.dynamoWriteUnits, 1),
    dynamoRequests: round(usage.dynamoRequests, 1),
    sqsRequests: round(usage.sqsRequests, 1),
    invocations: Object.fromEntries(fns.map((fn) => [fn, round(usage.invocations[fn], 1)])),
    durationMs: Object.fromEntries(fns.map((fn) => [fn, round(usage.durationMs[fn], 1)])),
  };
}

/** A middleware's view of a request: its input going out, its output coming back. */
type Handler = (args: { input: Record<string, unknown> }) => Promise<{ output: unknown }>;
interface Metered {
  middlewareStack: {
    add(
      middleware: (next: Handler, context: { commandName?: string }) => Handler,
      options: { step: 'initialize' | 'build'; name: string },
    ): void;
  };
}

/** DynamoDB on-demand read units of items read: 4 KB each, half for eventually consistent reads. */
const readUnits = (bytes: number, consistent: boolean) =>
  Math.ceil(bytes / 4096) * (consistent ? 1 : 0.5);

/**
 * Counts the requests of the stack's AWS clients as AWS bills them: DynamoDB capacity units
 * (dynalite reports them for item reads and writes when asked; a query's are worked out from the
 * items it returns), SQS requests (a message or batch counts once per 64 KB), and Lambda
 * invocations: each job deleted from the jobs queue is a worker invocation lasting from its
 * receipt, each from the delay queue a delay function's, and each A2A update queued one of the
 * push receiver (its duration is that of its send).
 */
class AwsMeter {
  readonly usage = emptyUsage();
  private readonly received = new Map<string, number>();
  private inFlight = 0;
  private lastActivity = performance.now();

  webhook(ms: number): void {
    this.usage.invocations.webhook += 1;
    this.usage.durationMs.webhook += ms;
  }

  /** Resolves once no job has been in progress or sent for a while. */
  async settled(quietMs = 300): Promise<void> {
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      if (this.inFlight === 0 && performance.now() - this.lastActivity > quietMs) return;
    }
  }

  meterDynamo(client: DynamoDBClient): void {
    const stack = (client as unknown as Metered).middlewareStack;
    const itemCommand = (command: string) =>
      /^(Get|Put|Update|Delete)(Item)?Command$/.test(command);
    // Asked for before the request is serialized; read from the raw answer after.
    stack.add(
      (next, context) => async (args) => {
        if (itemCommand(context.commandName ?? '')) args.input.ReturnConsumedCapacity = 'TOTAL';
        return next(args);
      },
      { step: 'initialize', name: 'benchCostDynamoAsk' },
    );
    stack.add(
      (next, context) => async (args) => {
        const command = context.commandName ?? '';
        const result = await next(args);
        this.usage.dynamoRequests += 1;
        const output = result.output as {
          ConsumedCapacity?: { CapacityUnits?: number };
          Items?: Record<string, unknown>[];
        };
        const units = output.ConsumedCapacity?.CapacityUnits ?? 0;
        if (command.startsWith('Get')) this.usage.dynamoReadUnits += units;
        else if (itemCommand(command)) this.usage.dynamoWriteUnits += units;
        else if (command === 'QueryCommand') {
          const bytes = (output.Items ?? []).reduce((sum, item) => sum + attributeBytes(item), 0);
          this.usage.dynamoReadUnits += readUnits(bytes, args.input.ConsistentRead === true);
        }
        return result;
      },
      { step: 'build', name: 'benchCostDynamo' },
    );
  }

  meterSqs(client: SQSClient): void {
    (client as unknown as Metered).middlewareStack.add(
      (next, context) => async (args) => {
        const command = context.commandName ?? '';
        const input = args.input as {
          QueueUrl?: string;
          MessageBody?: string;
          Entries?: { MessageBody?: string }[];
          ReceiptHandle?: string;
        };
        const bodies = input.MessageBody
          ? [input.MessageBody]
          : (input.Entries ?? []).map((e) => e.MessageBody ?? '');
        const sending = command === 'SendMessageCommand' || command === 'SendMessageBatchCommand';
        if (sending) this.lastActivity = performance.now();
        const started = performance.now();
        const result = await next(args);
        const output = result.output as { Messages?: { ReceiptHandle?: string }[] };
        const payload = bodies.reduce((sum, body) => sum + Buffer.byteLength(body), 0);
        // Empty receives are left out: Lambda's pollers make them whatever the traffic.
        const empty = command === 'ReceiveMessageCommand' && !output.Messages?.length;
        if (!empty) this.usage.sqsRequests += Math.max(1, Math.ceil(payload / 65536));
        if (sending) {
          const updates = bodies.filter((body) => body.includes('"type":"agent_update"')).length;
          this.usage.invocations.a2aPush += updates;
          this.usage.durationMs.a2aPush += updates * (performance.now() - started);
        }
        if (command === 'ReceiveMessageCommand') {
          for (const message of output.Messages ?? []) {
            this.lastActivity = performance.now();
            if (message.ReceiptHandle) this.received.set(message.ReceiptHandle, performance.now());
            this.inFlight += 1;
          }
        }
        if (command === 'DeleteMessageCommand' && input.ReceiptHandle) {
          const fn: Fn = input.QueueUrl?.includes('delay') ? 'delay' : 'worker';
          const since = this.received.get(input.ReceiptHandle);
          this.received.delete(input.ReceiptHandle);
          this.inFlight = Math.max(0, this.inFlight - 1);
          this.lastActivity = performance.now();
          this.usage.invocations[fn] += 1;
          if (since !== undefined) this.usage.durationMs[fn] += performance.now() - since;
        }
        return result;
      },
      { step: 'build', name: 'benchCostSqs' },
    );
  }
}

/** The size of an item as DynamoDB counts it: names and values, in UTF-8 bytes. */
function attributeBytes(item: Record<string, unknown>): number {
  let bytes = 0;
  for (const [name, value] of Object.entries(item)) {
    bytes += Buffer.byteLength(name) + valueBytes(value);
  }
  return bytes;
}

function valueBytes(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  const [type, inner] = Object.entries(value)[0] ?? [];
  switch (type) {
    case 'S':
      return Buffer.byteLength(String(inner));
    case 'N':
      return Math.ceil(String(inner).replace(/^-/, '').length / 2) + 1;
    case 'B':
      return (inner as Uint8Array).byteLength;
    case 'BOOL':
    case 'NULL':
      return 1;
    case 'M':
      return 3 + attributeBytes(inner as Record<string, unknown>);
    case 'L':
      return 3 + (inner as unknown[]).reduce<number>((sum, v) => sum + 1 + valueBytes(v), 0);
    default:
      return Buffer.byteLength(JSON.stringify(inner));
  }
}
