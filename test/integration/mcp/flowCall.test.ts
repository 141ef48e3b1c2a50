import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Assistant } from '../../../src/assistant/index.js';
import type { McpToolPort } from '../../../src/dialogue/index.js';
import { IDEMPOTENCY_KEY_META, type McpGateway, projectMcp } from '../../../src/mcp/index.js';
import { type ConversationStore, Job, processJob } from '../../../src/runtime/index.js';
import { assistantFrom } from '../../helpers/dialogue.js';
import { type Emulators, startEmulators } from '../../helpers/emulators.js';
import { SILENT_LOGGER } from '../../helpers/logger.js';
import { startTestMcpServer, type TestMcpServer } from '../../helpers/mcpTestServer.js';
import { NEVER, testRuntime, userMessage } from '../../helpers/runtime.js';
import { freePort } from '../../helpers/serverEverything.js';
import { waitFor } from '../../helpers/waitFor.js';
import { secretsOf } from './fixtures.js';

function project(serverUrl: string, downUrl: string): Record<string, string> {
  return {
    '.env': 'CALC_KEY=calc-key\n',
    'endpoints.yml': `mcp_servers:
  - name: calculator
    url: ${serverUrl}
    api_key: \${CALC_KEY}
    pre_call_hook: custom.hooks.tenant
    meta_map:
      static:
        api_version: v2
      from_slots:
        - slot: a
          param: first_number
  - name: offline
    url: ${downUrl}
  - name: guarded
    url: ${serverUrl}
    api_key: \${CALC_KEY}
    pre_call_hook: custom.hooks.refuse
`,
    'domain.yml': `slots:
  a:
    type: float
  b:
    type: float
  total:
    type: any
responses:
  utter_total:
    - text: "The total is {total}."
`,
    'data/flows.yml': `flows:
  add_numbers:
    description: Add two numbers with the calculator.
    steps:
      - id: sum
        call: add
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
  guarded_call:
    description: Call a server whose hook refuses.
    steps:
      - id: refused
        call: echo
        mcp_server: guarded
        mapping:
          input: []
          output: []
  broken:
    description: Call a server that is down.
    steps:
      - id: unreachable
        call: add
        mcp_server: offline
`,
    'custom/hooks.ts': `export function tenant(context: { senderId: string; flowId?: string; stepId?: string }) {
  return { metadata: { tenant: 'acme', where: \`\${context.flowId}/\${context.stepId}\` } };
}

export function refuse(): never {
  throw new Error('no credentials for this conversation');
}
`,
  };
}

describe('MCP call steps in flows', () => {
  let emulators: Emulators;
  let server: TestMcpServer;
  let assistant: Assistant;
  let gateway: McpGateway;
  let flowTools: McpToolPort;
  const logs: string[] = [];
  const logger = {
    ...SILENT_LOGGER,
    debug: (m: string, f: Record<string, unknown>) => logs.push(`debug ${m} ${JSON.stringify(f)}`),
    warn: (m: string, f: Record<string, unknown>) => logs.push(`warn ${m} ${JSON.stringify(f)}`),
    error: (m: string, f: Record<string, unknown>) => logs.push(`error ${m} ${JSON.stringify(f)}`),
  };

  beforeAll(async () => {
    emulators = await startEmulators({ visibilityTimeoutSeconds: 1 });
    server = await startTestMcpServer({
      authorize: (r) => r.headers.authorization === 'Bearer calc-key',
    });
    assistant = await assistantFrom(
      project(server.url, `http://127.0.0.1:${await freePort()}/mcp`),
    );
    ({ gateway, flowTools } = await projectMcp({
      assistant,
      secrets: secretsOf({ CALC_KEY: 'calc-key' }),
      logger,
    }));
  }, 30_000);
  afterAll(async () => {
    await gateway?.close();
    await server?.close();
    await emulators?.close();
  });

  const receiveAll = async (queueUrl: string): Promise<Job[]> => {
    const { Messages = [] } = await emulators.sqs.send(
      new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10 }),
    );
    return Messages.map((m) => Job.parse(JSON.parse(m.Body ?? '')));
  };
  const runtime = () => testRuntime(emulators, assistant, { mcp: flowTools });
  const texts = async (rt: Awaited<ReturnType<typeof runtime>>, id: string, turn: string) =>
    (await rt.replies.read(id, turn)).messages.map((m) => m.message.text);

  it('maps slots into the tool’s arguments and its result into slots', async () => {
    const rt = await runtime();
    const job = userMessage('adder', '/SetSlots(a=2, b=40)');
    await processJob(job, rt.deps, NEVER);
    const start = userMessage('adder', 'add them up');
    rt.llm.reply('start flow add_numbers');

    await processJob(start, rt.deps, NEVER);

    expect(await texts(rt, 'adder', start.turn_id)).toContain('The total is 42.');
    const call = server.calls.at(-1);
    expect(call?.arguments).toEqual({ a: 2, b: 40 });
    expect(call?.meta).toMatchObject({
      api_version: 'v2',
      first_number: 2,
      tenant: 'acme',
      where: 'add_numbers/sum',
    });
    expect(logs.some((l) => l.startsWith('debug calling MCP tool') && l.includes('"tenant"'))).toBe(
      true,
    );
    expect(logs.join('\n')).not.toContain('acme');
  });

  it('sends the same idempotency key when a job runs again after a crash before its commit', async () => {
    const rt = await runtime();
    await processJob(userMessage('crash', '/SetSlots(a=1, b=1)'), rt.deps, NEVER);
    const before = server.calls.length;
    const job = userMessage('crash', 'add them');
    const crashing: ConversationStore = Object.create(rt.store);
    crashing.commit = async () => {
      throw new Error('the worker died before committing');
    };

    rt.llm.reply('start flow add_numbers');
    await expect(processJob(job, { ...rt.deps, store: crashing }, NEVER)).rejects.toThrow(
      'the worker died',
    );
    rt.llm.reply('start flow add_numbers');
    await processJob(job, rt.deps, NEVER);

    const keys = server.calls.slice(before).map((c) => c.meta[IDEMPOTENCY_KEY_META]);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe(keys[1]);
    expect(await texts(rt, 'crash', job.turn_id)).toContain('The total is 2.');
  });

  it('answers a hook that throws with the internal-error pattern at once, without calling the server', async () => {
    const rt = await runtime();
    rt.llm.reply('start flow guarded_call');
    const job = userMessage('refused', 'try it');
    const before = server.calls.length;

    await processJob(job, rt.deps, NEVER);

    expect(await texts(rt, 'refused', job.turn_id)).toEqual([
      'Sorry, something went wrong on my side. Please try again in a moment.',
    ]);
    expect(server.calls.length).toBe(before);
    const logged = logs.find((l) => l.includes('"flow":"guarded_call"'));
    expect(logged).toContain('pre_call_hook custom.hooks.refuse threw: no credentials');
  });

  it('retries the turn later when a server cannot be reached, then answers with the internal-error pattern', async () => {
    const rt = await runtime();
    rt.llm.reply('start flow broken');
    const job = userMessage('down', 'break it');
    if (job.type !== 'user_message') throw new Error('a user message job');

    await processJob(job, rt.deps, NEVER);

    // Nothing of the try is kept; the same message comes back as a delayed job.
    const head = await rt.store.load('down');
    expect(head?.nextSeq).toBe(0);
    expect(await texts(rt, 'down', job.turn_id)).toEqual([]);
    const queued = await waitFor(
      async () => {
        const jobs = await receiveAll(rt.delayQueueUrl);
        return jobs.length > 0 && jobs;
      },
      { description: 'the retry on the delay queue' },
    );
    expect(queued).toMatchObject([{ id: `${job.turn_id}~retry1`, attempt: 1, text: 'break it' }]);

    rt.llm.reply('start flow broken');
    await processJob({ ...job, id: `${job.turn_id}~retry3`, attempt: 3 }, rt.deps, NEVER);

    expect(await texts(rt, 'down', job.turn_id)).toEqual([
      'Sorry, something went wrong on my side. Please try again in a moment.',
    ]);
    const logged = logs.filter(
      (l) => l.startsWith('error MCP tool call of a flow failed') && l.includes('"flow":"broken"'),
    );
    expect(logged).toHaveLength(2);
    expect(logged[1]).toContain(
      '"flow":"broken","step":"unreachable","server":"offline","tool":"add"',
    );
    expect(logged[1]).toContain('ECONNREFUSED');
  });
});
