import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { createMCPClient } from '@ai-sdk/mcp';
import { createOpenAI } from '@ai-sdk/openai';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  Agent,
  MaxTurnsExceededError,
  MCPServerStreamableHttp,
  OpenAIChatCompletionsModel,
  run,
  setTracingDisabled,
} from '@openai/agents';
import { generateText, stepCountIs } from 'ai';
import OpenAI from 'openai';
import { DynamoConversationStore } from '../src/adapters/aws/dynamoConversationStore.js';
import { DynamoReplyStore } from '../src/adapters/aws/dynamoReplyStore.js';
import { SqsJobQueue } from '../src/adapters/aws/sqsJobQueue.js';
import { SqsJobReceiver } from '../src/adapters/aws/sqsJobReceiver.js';
import { SqsJobSource } from '../src/adapters/aws/sqsJobSource.js';
import type { StoreMeter } from '../src/adapters/aws/storeMeter.js';
import {
  ensureQueues,
  ensureTable,
  localAwsConfig,
  startDynalite,
  startFauxqs,
} from '../src/adapters/local/emulators.js';
import { type ReactRunData, ReactRunner } from '../src/agents/index.js';
import { projectAgents } from '../src/assembly/index.js';
import type { Assistant, ReactSubAgent } from '../src/assistant/index.js';
import { standardChannels } from '../src/channels/index.js';
import { type LlmPort, NO_ACTIONS } from '../src/dialogue/index.js';
import { OpenAiChatModel } from '../src/llm/index.js';
import { McpAgentTools, McpGateway } from '../src/mcp/index.js';
import {
  ConcurrentUpdateError,
  createRuntime,
  type Job,
  runWorkerLoop,
} from '../src/runtime/index.js';
import { benchProject, mark, round, type Sample, since, spawnPeers, summary } from './harness.js';

/** Conversations per loop, and ReAct iterations (one model call, one tool call) in each. */
const CONVERSATIONS = 50;
const ITERATIONS = 10;

interface Peers {
  readonly modelUrl: string;
  readonly mcpUrl: string;
  stop(): void;
}

/** Starts the scripted model and the MCP server in a child process. */
async function startPeers(): Promise<Peers> {
  const peers = await spawnPeers<{ modelUrl: string; mcpUrl: string }>('./reactPeers.ts', {
    REACT_ITERATIONS: String(ITERATIONS),
  });
  return { ...peers.ready, stop: peers.stop };
}

/**
 * The benchmark's assistant: one flow that calls a general-purpose agent on the MCP server, whose
 * `echo` the project declares read-only or not.
 */
function benchAssistant(
  mcpUrl: string,
  readOnly = false,
): Promise<{ assistant: Assistant; dir: string }> {
  return benchProject(readOnly ? 'react-read-only' : 'react', {
    'endpoints.yml': `mcp_servers:\n  - name: bench\n    url: ${mcpUrl}\n${readOnly ? '    read_only: true\n' : ''}`,
    'domain.yml': 'slots: {}\nresponses:\n  utter_done:\n    - text: Done.\n',
    'data/flows.yml':
      'flows:\n  bench:\n    description: Work.\n    steps:\n      - call: worker\n      - action: utter_done\n',
    'sub_agents/worker/config.yml':
      'agent:\n  name: worker\n  description: Echoes until done.\nconfiguration:\n  include_date_time: true\nconnections:\n  mcp_servers:\n    - name: bench\n',
  });
}

const PROMPT = 'You echo until you are done.';

/** One way to run the loop: a conversation of `ITERATIONS` iterations at a time. */
interface Loop {
  conversation(c: number): Promise<Sample[]>;
  close(): Promise<void>;
}

/** The baseline: the loop written by hand on the openai and MCP SDKs. */
async function handWrittenLoop(peers: Peers): Promise<Loop> {
  const client = new OpenAI({ apiKey: 'bench', baseURL: peers.modelUrl, maxRetries: 0 });
  const mcp = new Client({ name: 'bench', version: '1.0.0' });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(peers.mcpUrl)));
  const { tools } = await mcp.listTools();
  const definitions = tools.map((t) => ({
    type: 'function' as const,
    function: { name: t.name, description: t.description ?? '', parameters: t.inputSchema },
  }));
  return {
    async conversation() {
      const samples: Sample[] = [];
      const messages: OpenAI.ChatCompletionMessageParam[] = [
        { role: 'system', content: PROMPT },
        { role: 'user', content: 'go' },
      ];
      for (let i = 0; i < ITERATIONS; i++) {
        const start = mark();
        const response = await client.chat.completions.create({
          model: 'bench',
          messages,
          tools: definitions,
        });
        const message = response.choices[0]?.message;
        if (!message) throw new Error('no answer');
        messages.push(message);
        for (const call of message.tool_calls ?? []) {
          if (call.type !== 'function') continue;
          const result = await mcp.callTool({
            name: call.function.name,
            arguments: JSON.parse(call.function.arguments) as Record<string, unknown>,
          });
          const content = (result.content as { type: string; text?: string }[])
            .map((part) => part.text ?? '')
            .join('\n');
          messages.push({ role: 'tool', tool_call_id: call.id, content });
        }
        samples.push(since(start));
      }
      return samples;
    },
    close: () => mcp.close(),
  };
}

/**
 * Switchboard's runner in process: each step's data is serialized and parsed back with the
 * runner's schema, as a store round trip would; no table, no queue.
 */
async function switchboardInProcess(
  peers: Peers,
  assistant: Assistant,
  stepsPerIteration: 1 | 2,
): Promise<Loop> {
  const agent = assistant.agents.worker as ReactSubAgent;
  const gateway = new McpGateway({ assistant, secrets: { get: async () => '' } });
  const chat = new OpenAiChatModel({
    model: 'bench',
    apiKey: 'bench',
    baseURL: peers.modelUrl,
  });
  const tools = new McpAgentTools(gateway, agent.name, agent.mcpServers);
  const runner = new ReactRunner({ assistant, models: () => chat, tools: () => tools });
  return {
    async conversation(c) {
      const samples: Sample[] = [];
      let data: ReactRunData = runner.start({
        agent,
        frameId: 'f1',
        input: {
          id: `bench-${c}`,
          userMessage: 'go',
          slots: [],
          conversationHistory: 'USER: go',
          events: [{ event: 'user', text: 'go' }],
          metadata: { sender_id: `bench-${c}` },
          timestamp: new Date().toISOString(),
        },
        resumed: false,
        restarted: false,
      });
      for (let i = 0; i < ITERATIONS; i++) {
        const start = mark();
        for (let step = 0; step < stepsPerIteration; step++) {
          const stored = runner.dataSchema.parse(JSON.parse(JSON.stringify(data)));
          // Each step is a job with a signal of its own, as the worker gives it.
          const { signal } = new AbortController();
          data = (
            await runner.step(stored, { conversationId: `bench-${c}`, runId: `run-${c}`, signal })
          ).data;
        }
        samples.push(since(start));
      }
      return samples;
    },
    close: () => gateway.close(),
  };
}

/** The spans between marks taken at each model request, the last one ending at `end`. */
function between(marks: readonly Sample[], end: Sample): Sample[] {
  return marks.map((start, i) => {
    const next = marks[i + 1] ?? end;
    return { wallMs: next.wallMs - start.wallMs, cpuMs: next.cpuMs - start.cpuMs };
  });
}

/** The same loop run by the OpenAI Agents SDK, timed between its model requests. */
async function openAiAgentsLoop(peers: Peers): Promise<Loop> {
  setTracingDisabled(true);
  let marks: Sample[] = [];
  const client = new OpenAI({
    apiKey: 'bench',
    baseURL: peers.modelUrl,
    fetch: (input, init) => {
      marks.push(mark());
      return fetch(input, init);
    },
  });
  const server = new MCPServerStreamableHttp({
    url: peers.mcpUrl,
    name: 'bench',
    cacheToolsList: true,
  });
  await server.connect();
  const agent = new Agent({
    name: 'bench',
    instructions: PROMPT,
    model: new OpenAIChatCompletionsModel(client, 'bench'),
    mcpServers: [server],
  });
  return {
    async conversation() {
      marks = [];
      try {
        await run(agent, 'go', { maxTurns: ITERATIONS });
      } catch (error) {
        if (!(error instanceof MaxTurnsExceededError)) throw error;
      }
      return between(marks, mark());
    },
    close: () => server.close(),
  };
}

/**
 * The same loop on the Vercel AI SDK (`ai`, its OpenAI provider and its MCP client), timed
 * between its model requests, as the Agents SDK's loop is.
 */
async function vercelAiLoop(peers: Peers): Promise<Loop> {
  let marks: Sample[] = [];
  const provider = createOpenAI({
    apiKey: 'bench',
    baseURL: peers.modelUrl,
    fetch: (input, init) => {
      marks.push(mark());
      return fetch(input, init);
    },
  });
  const mcp = await createMCPClient({ transport: { type: 'http', url: peers.mcpUrl } });
  // Listed once, as the other loops keep their tool lists.
  const tools = await mcp.tools();
  return {
    async conversation() {
      marks = [];
      await generateText({
        model: provider.chat('bench'),
        system: PROMPT,
        prompt: 'go',
        tools,
        stopWhen: stepCountIs(ITERATIONS),
      });
      return between(marks, mark());
    },
    close: () => mcp.close(),
  };
}

/**
 * Runs the loops' conversations taking turns (a, b, c, then b, c, a, …), so that a busy machine
 * weighs on all alike; the first conversation of each warms it up and is not counted.
 */
async function takingTurns(loops: readonly Loop[]): Promise<Sample[][]> {
  const samples: Sample[][] = loops.map(() => []);
  for (let c = 0; c <= CONVERSATIONS; c++) {
    for (let k = 0; k < loops.length; k++) {
      const index = (c + k) % loops.length;
      const got = await (loops[index] as Loop).conversation(c);
      if (c > 0) samples[index]?.push(...got);
    }
  }
  return samples;
}

/** A command model that starts the benchmark's flow at once. */
const startFlow: LlmPort = { complete: async () => ({ content: 'start flow bench' }) };

/**
 * Switchboard as it runs locally: the runtime on dynalite and fauxqs in process, a worker loop on
 * the job queue. An iteration is the model step's job and the tools step's job, or the one job
 * of both when the tool is read-only (queue waits excluded); DynamoDB and SQS requests are
 * counted for whole conversations.
 */
async function switchboardOnStack(peers: Peers, assistant: Assistant, jobsPerIteration: 1 | 2) {
  const [dynalite, fauxqs] = await Promise.all([startDynalite(), startFauxqs()]);
  const dynamo = new DynamoDBClient(localAwsConfig(dynalite.endpoint));
  const sqs = new SQSClient(localAwsConfig(fauxqs.endpoint));
  const requests = { dynamo: 0, sqs: 0 };
  const uncounted = DynamoDBDocumentClient.from(
    new DynamoDBClient(localAwsConfig(dynalite.endpoint)),
  );
  dynamo.middlewareStack.add((next) => async (args) => {
    requests.dynamo += 1;
    return next(args);
  });
  sqs.middlewareStack.add((next) => async (args) => {
    requests.sqs += 1;
    return next(args);
  });
  const gateway = new McpGateway({ assistant, secrets: { get: async () => '' } });
  const stop = new AbortController();
  try {
    await ensureTable(dynamo, 'bench');
    const queues = await ensureQueues(sqs, { prefix: 'reactbench' });
    const documents = DynamoDBDocumentClient.from(dynamo, {
      marshallOptions: { removeUndefinedValues: true },
    });
    const meter: StoreMeter = { reads: 0, writes: 0, bytesRead: 0, bytesWritten: 0 };
    const now = () => Date.now();
    const table = { client: documents, tableName: 'bench', ttlSeconds: 3600, now };
    const chat = new OpenAiChatModel({
      model: 'bench',
      apiKey: 'bench',
      baseURL: peers.modelUrl,
    });
    const runtime = createRuntime({
      store: new DynamoConversationStore({ ...table, meter }),
      queue: new SqsJobQueue({
        client: sqs,
        jobsQueueUrl: queues.jobsQueueUrl,
        delayQueueUrl: queues.delayQueueUrl,
        now,
      }),
      replies: new DynamoReplyStore(table),
      channels: standardChannels,
      now,
      newId: randomUUID,
      sleep: async () => {},
      http: { replyWaitMs: 0 },
      dialogue: {
        assistant,
        models: () => startFlow,
        actions: NO_ACTIONS,
        mcp: { callTool: async () => ({ isError: true }) },
        runners: await projectAgents({
          assistant,
          models: () => chat,
          gateway,
          secrets: { get: async () => '' },
        }),
        random: () => 0,
      },
    });
    if (!runtime.deps || !runtime.processJob) throw new Error('the runtime has no dialogue');
    const processJob = runtime.processJob;
    const steps: Sample[] = [];
    const stepRequests: number[] = [];
    let counted = 0;
    const logger = {
      debug: () => {},
      info: () => {},
      warn: () => {},
      error: (m: string) => process.stderr.write(`${m}\n`),
    };
    const loop = runWorkerLoop({
      source: new SqsJobSource(new SqsJobReceiver(sqs), queues.jobsQueueUrl, logger, 1),
      process: async (job: Job, signal, deadline) => {
        const start = mark();
        await processJob(job, signal, { deadline });
        // A job's requests: since the last job ended (its message's delete, this one's receive).
        const count = requests.dynamo + requests.sqs;
        if (job.type === 'agent_step') {
          steps.push(since(start));
          stepRequests.push(count - counted);
        }
        counted = count;
      },
      isRetryable: (e) => e instanceof ConcurrentUpdateError,
      logger,
      signal: stop.signal,
    });
    // The benchmark waits for each turn on a client of its own, whose requests are not counted.
    const replies = new DynamoReplyStore({ ...table, client: uncounted });
    const before = { ...requests, jobs: 0 };
    for (let c = 0; c < CONVERSATIONS; c++) {
      const id = `stack-${c}`;
      const job: Job = {
        type: 'user_message',
        id,
        conversation_id: id,
        turn_id: id,
        text: 'go',
        channel: 'rest',
      };
      await runtime.deps.queue.enqueue([job]);
      while (!(await replies.read(id, id)).settled) await new Promise((r) => setTimeout(r, 5));
    }
    stop.abort();
    await loop;
    // Each run: ITERATIONS iterations of `jobsPerIteration` steps, then the step that completes it.
    const perRun = ITERATIONS * jobsPerIteration + 1;
    if (steps.length !== CONVERSATIONS * perRun) {
      throw new Error(`expected ${perRun} step jobs per run, got ${steps.length / CONVERSATIONS}`);
    }
    const iterations: Sample[] = [];
    const iterationRequests: number[] = [];
    for (let c = 0; c < CONVERSATIONS; c++) {
      for (let i = 0; i < ITERATIONS; i++) {
        const from = c * perRun + i * jobsPerIteration;
        iterationRequests.push(
          stepRequests.slice(from, from + jobsPerIteration).reduce((sum, n) => sum + n, 0),
        );
        const jobs = steps.slice(
          c * perRun + i * jobsPerIteration,
          c * perRun + (i + 1) * jobsPerIteration,
        );
        iterations.push({
          wallMs: jobs.reduce((sum, job) => sum + job.wallMs, 0),
          cpuMs: jobs.reduce((sum, job) => sum + job.cpuMs, 0),
        });
      }
    }
    const total = CONVERSATIONS * ITERATIONS;
    return {
      ...summary(iterations),
      stepJobsPerRun: perRun,
      perIteration: {
        note: 'whole conversations (the turn that starts the run and the step that ends it included) divided by their iterations',
        dynamoRequests: round((requests.dynamo - before.dynamo) / total, 2),
        storeReads: round(meter.reads / total, 2),
        storeWrites: round(meter.writes / total, 2),
        sqsRequests: round((requests.sqs - before.sqs) / total, 2),
      },
      /** DynamoDB plus SQS requests of an iteration's own jobs, the queue's receive and delete included. */
      requestsPerIteration: round(
        iterationRequests.reduce((sum, n) => sum + n, 0) / iterationRequests.length,
        2,
      ),
    };
  } finally {
    stop.abort();
    await gateway.close();
    dynamo.destroy();
    uncounted.destroy();
    sqs.destroy();
    await Promise.all([dynalite.close(), fauxqs.close()]);
  }
}

/**
 * Switchboard's cost per ReAct iteration (one model call and the tool call it asked for) against
 * a model and an MCP server that answer at once, in a child process (so their CPU is not counted
 * and each loop pays the same two loopback round trips): (a) its runner in process, beside the
 * loop written by hand on the openai and MCP SDKs and the same loop run by @openai/agents; (b) on
 * the local stack with the emulators (their CPU included), with DynamoDB and SQS requests.
 */
export async function reactBenchmark(): Promise<Record<string, unknown>> {
  const peers = await startPeers();
  const { assistant, dir } = await benchAssistant(peers.mcpUrl);
  const readOnly = await benchAssistant(peers.mcpUrl, true);
  try {
    const loops = [
      await handWrittenLoop(peers),
      await switchboardInProcess(peers, assistant, 2),
      await switchboardInProcess(peers, readOnly.assistant, 1),
      await openAiAgentsLoop(peers),
      await vercelAiLoop(peers),
    ];
    const [hand, ours, oursReadOnly, agents, vercel] = (
      await takingTurns(loops).finally(() => Promise.all(loops.map((loop) => loop.close())))
    ).map(summary);
    if (!hand || !ours || !oursReadOnly || !agents || !vercel) throw new Error('a loop is missing');
    const cpuOver = (loop: typeof hand) => round(loop.cpuMedianMs - hand.cpuMedianMs);
    const onStack = await switchboardOnStack(peers, assistant, 2);
    const onStackReadOnly = await switchboardOnStack(peers, readOnly.assistant, 1);
    return {
      iterationsPerConversation: ITERATIONS,
      handWrittenLoop: hand,
      switchboardInProcess: ours,
      switchboardInProcessReadOnly: oursReadOnly,
      openaiAgents: agents,
      vercelAi: vercel,
      medianOverHandWrittenMs: round(ours.wallMedianMs - hand.wallMedianMs),
      /** Median CPU per iteration over the hand-written loop's, in the same run. */
      cpuOverHandWrittenMs: {
        switchboard: cpuOver(ours),
        switchboardReadOnly: cpuOver(oursReadOnly),
        openaiAgents: cpuOver(agents),
        vercelAi: cpuOver(vercel),
      },
      switchboardOnLocalStack: onStack,
      switchboardOnLocalStackReadOnly: onStackReadOnly,
      /** DynamoDB plus SQS requests of a read-only iteration over those of a side-effecting one. */
      readOnlyRequestsRatio: round(
        onStackReadOnly.requestsPerIteration / onStack.requestsPerIteration,
        3,
      ),
    };
  } finally {
    peers.stop();
    await rm(dir, { recursive: true, force: true });
    await rm(readOnly.dir, { recursive: true, force: true });
  }
}
