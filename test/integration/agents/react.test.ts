import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { projectAgents } from '../../../src/assembly/index.js';
import { standardChannels } from '../../../src/channels/index.js';
import { OpenAiChatModel } from '../../../src/llm/index.js';
import { IDEMPOTENCY_KEY_META, McpGateway } from '../../../src/mcp/index.js';
import {
  type Channel,
  processJob,
  type ReplyBatch,
  type TextPreview,
} from '../../../src/runtime/index.js';
import { startTestMcpServer, type TestMcpServer } from '../../helpers/mcpTestServer.js';
import {
  internalErrorReasons,
  NEVER,
  runtimeSuite,
  storeWith,
  type TestRuntime,
  userMessage,
} from '../../helpers/runtime.js';
import { ScriptedOpenAi } from '../../helpers/scriptedOpenAi.js';

const AGENTS_MODULE = fileURLToPath(new URL('../../../src/agents/index.ts', import.meta.url));

let mcp: TestMcpServer;
beforeAll(async () => {
  mcp = await startTestMcpServer({ rendezvous: true });
});
afterAll(async () => {
  await mcp.close();
});

const files = () => ({
  'endpoints.yml': `mcp_servers:\n  - name: tools\n    url: ${mcp.url}\n`,
  'domain.yml': `slots:
  dealer_name:
    type: text
  appointment_time:
    type: text
  color:
    type: categorical
    values: [red, blue]
responses:
  utter_researched:
    - text: Research is over.
  utter_booked:
    - text: Booked at {dealer_name} for {appointment_time}.
  utter_painted:
    - text: Painted {color}.
  utter_dealer:
    - text: Dealer now {dealer_name}.
`,
  'data/flows.yml': `flows:
  research:
    description: Research something.
    steps:
      - call: researcher
      - action: utter_researched
  book:
    description: Book an appointment.
    steps:
      - call: booker
        exit_if:
          - slots.dealer_name is not null and slots.appointment_time is not null
      - action: utter_booked
  lookup:
    description: Look the tenant up.
    steps:
      - call: concierge
      - action: utter_dealer
  stall:
    description: Stall.
    steps:
      - call: staller
  sloppy_flow:
    description: Be sloppy.
    steps:
      - call: sloppy
  dawdle:
    description: Take time.
    steps:
      - call: slowpoke
  book_both:
    description: Book an appointment, one slot after the other.
    steps:
      - call: booker
        exit_if:
          - slots.dealer_name is not null
          - slots.appointment_time is not null
      - action: utter_booked
  paint:
    description: Choose a color.
    steps:
      - call: booker
        exit_if:
          - slots.color is not null
      - action: utter_painted
`,
  'sub_agents/researcher/config.yml': `agent:
  name: researcher
  description: Researches with the tools it has.
configuration:
  include_date_time: false
connections:
  mcp_servers:
    - name: tools
      exclude_tools: [slow]
`,
  'sub_agents/concierge/config.yml': `agent:
  name: concierge
  description: Looks tenants up.
configuration:
  module: custom.agents.ConciergeAgent
  tool_timeout: 1
connections:
  mcp_servers:
    - name: tools
      include_tools: [echo]
`,
  'sub_agents/staller/config.yml': `agent:
  name: staller
  description: Never works.
configuration:
  module: custom.agents.StallingAgent
connections:
  mcp_servers:
    - name: tools
`,
  'sub_agents/sloppy/config.yml': `agent:
  name: sloppy
  description: Sets slots it should not.
configuration:
  module: custom.agents.SloppyAgent
connections:
  mcp_servers:
    - name: tools
`,
  'sub_agents/slowpoke/config.yml': `agent:
  name: slowpoke
  description: Takes its time.
configuration:
  timeout: 1
connections:
  mcp_servers:
    - name: tools
`,
  'custom/agents.ts': `import { McpOpenAgent } from ${JSON.stringify(AGENTS_MODULE)};

export const executed: string[] = [];

export class StallingAgent extends McpOpenAgent {
  async sendMessage() {
    return { messages: [] };
  }
}

export class SloppyAgent extends McpOpenAgent {
  async processToolOutput() {
    return [{ event: 'slot', name: 'no_such_slot', value: 1 }];
  }
}

export class ConciergeAgent extends McpOpenAgent {
  async processInput(input) {
    return { ...input, metadata: { ...input.metadata, tenant: 'acme' } };
  }

  getCustomToolDefinitions() {
    const definition = (name) => ({
      type: 'function',
      function: { name, parameters: { type: 'object', properties: { q: { type: 'string' } } } },
    });
    return [
      {
        ...definition('lookup_tenant'),
        toolExecutor: async (args, context) => {
          executed.push('lookup_tenant');
          return {
            toolName: 'lookup_tenant',
            result: JSON.stringify({
              q: args.q,
              tenant: context.metadata.tenant,
              token: context.metadata.api_token === 'token-for-hooks',
              keyed: typeof context.idempotencyKey === 'string' && context.signal instanceof AbortSignal,
            }),
          };
        },
      },
      {
        ...definition('broken_meta'),
        toolExecutor: async () => {
          executed.push('broken_meta');
          return { toolName: 'broken_meta', result: 'ran' };
        },
      },
      { ...definition('throws'), toolExecutor: async () => { throw new Error('the backend is down'); } },
      { ...definition('hangs'), toolExecutor: () => new Promise(() => {}) },
      { ...definition('odd'), toolExecutor: async () => 42 },
    ];
  }

  buildCustomToolCallMetadata(context) {
    if (context.toolName === 'broken_meta') return 'not an object';
    return { metadata: { api_token: 'token-for-' + context.senderId } };
  }

  async processToolOutput(current) {
    return Object.values(current)
      .filter((r) => r.toolName === 'lookup_tenant' && r.result)
      .map((r) => ({ event: 'slot', name: 'dealer_name', value: JSON.parse(r.result).tenant }));
  }

  async sendMessage(input, step) {
    const result = await step.run();
    return step.first ? { ...result, messages: [{ text: 'Working on it.' }, ...result.messages] } : result;
  }

  getTaskCompletedTool() {
    const tool = super.getTaskCompletedTool();
    return { ...tool, function: { ...tool.function, description: 'Finish with an offer to help more.' } };
  }
}
`,
  'sub_agents/booker/config.yml': `agent:
  name: booker
  description: Books appointments.
connections:
  mcp_servers:
    - name: tools
      include_tools: [echo]
`,
});

const suite = runtimeSuite(files);

/** What the agents sent the model, as far as the tests read it. */
interface SentBody {
  readonly messages: { role: string; content: unknown; tool_call_id?: string }[];
  readonly tools: { function: { name: string; description?: string } }[];
  readonly tool_choice?: string;
}

const INTERNAL_ERROR = 'Sorry, something went wrong on my side. Please try again in a moment.';

describe('ReAct sub agents', () => {
  let model: ScriptedOpenAi;
  let gateway: McpGateway;

  beforeEach(async () => {
    model = await ScriptedOpenAi.start();
    mcp.calls.length = 0;
  });
  afterEach(async () => {
    await gateway?.close();
    await model.close();
  });

  /** A runtime whose agents use the scripted model and the test MCP server. */
  async function agentRuntime(
    options: Parameters<typeof suite.runtime>[0] = {},
  ): Promise<TestRuntime> {
    gateway = new McpGateway({ assistant: suite.assistant, secrets: { get: async () => '' } });
    const chat = new OpenAiChatModel({
      model: 'scripted',
      apiKey: 'sk-test',
      baseURL: model.url,
    });
    const runners = await projectAgents({
      assistant: suite.assistant,
      models: () => chat,
      gateway,
      secrets: { get: async () => '' },
    });
    return suite.runtime({ ...options, runners });
  }

  /** Sends a message and runs every job until its turn settles; the turn's texts. */
  async function say(rt: TestRuntime, conversation: string, text: string, command: string) {
    rt.llm.reply(command);
    const job = userMessage(conversation, text);
    await rt.queue.enqueue([job]);
    await rt.drain(async () => (await rt.replies.read(conversation, job.turn_id)).settled);
    const replies = await rt.replies.read(conversation, job.turn_id);
    return replies.messages.map((m) => m.message.text);
  }

  /** The body of the model's `n`th request (0-based). */
  function request(n: number): SentBody {
    const body = model.requests[n]?.body;
    if (body === undefined) throw new Error(`the model got no request #${n}`);
    return body as SentBody;
  }

  /** The chat messages of the model's `n`th request. */
  const sent = (n: number) => request(n).messages;

  it('runs the tools a general-purpose agent asks for and ends with task_completed and its closing line', async () => {
    const rt = await agentRuntime();
    model.reply(
      { text: 'Let me add that up.', toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 } }] },
      {
        text: 'It is 5. Glad I could help!',
        toolCalls: [{ name: 'task_completed', arguments: {} }],
      },
    );
    expect(await say(rt, 'open', 'what is 2 plus 3?', 'start flow research')).toEqual([
      'Let me add that up.',
      'It is 5. Glad I could help!',
      'Research is over.',
      'Can I help you with anything else?',
    ]);
    model.verify();
    expect(mcp.calls.map((c) => [c.tool, c.arguments])).toEqual([['add', { a: 2, b: 3 }]]);
    expect(mcp.calls[0]?.meta[IDEMPOTENCY_KEY_META]).toEqual(expect.any(String));

    const first = request(0);
    expect(first.tools.map((t) => t.function.name).sort()).toEqual([
      'add',
      'echo',
      'fail',
      'task_completed',
      'together',
    ]);
    expect(first.tool_choice).toBe('auto');
    expect(sent(0)[0]).toMatchObject({
      role: 'system',
      content: expect.stringContaining('Researches with the tools it has.'),
    });
    expect(sent(0).at(-1)).toEqual({ role: 'user', content: 'what is 2 plus 3?' });
    const second = sent(1);
    expect(second.at(-2)).toMatchObject({ role: 'assistant', content: 'Let me add that up.' });
    expect(second.at(-1)).toMatchObject({ role: 'tool', content: '5\n{"sum":5}' });

    const bots = (await rt.store.readEvents('open')).filter((e) => e.event.event === 'bot');
    expect(bots[0]?.event).toMatchObject({
      text: 'Let me add that up.',
      metadata: { filler: true, agent_id: 'researcher' },
    });
    expect(bots[1]?.event).not.toHaveProperty('metadata.filler');
  }, 30_000);

  it('asks the model for a closing line, without tools, when task_completed came without text', async () => {
    const rt = await agentRuntime();
    model.reply({ toolCalls: [{ name: 'task_completed', arguments: {} }] }, 'Enjoy your new car!');
    expect(await say(rt, 'closing', 'thanks, that is all', 'start flow research')).toEqual([
      'Enjoy your new car!',
      'Research is over.',
      'Can I help you with anything else?',
    ]);
    model.verify();
    const closing = request(1);
    expect(closing.tool_choice).toBe('none');
    expect(closing.messages.at(-1)).toMatchObject({
      role: 'system',
      content: expect.stringContaining('Do not call any tool'),
    });
    expect(closing.messages.at(-2)).toMatchObject({ role: 'tool', content: 'Task completed' });
  }, 30_000);

  it('runs the other tools of the answer that calls task_completed before the run ends', async () => {
    const rt = await agentRuntime();
    model.reply({
      text: 'Done, see you soon!',
      toolCalls: [
        { name: 'echo', arguments: { text: 'noted' } },
        { name: 'task_completed', arguments: {} },
      ],
    });
    expect(await say(rt, 'both', 'note it and finish', 'start flow research')).toEqual([
      'Done, see you soon!',
      'Research is over.',
      'Can I help you with anything else?',
    ]);
    expect(mcp.calls.map((c) => c.tool)).toEqual(['echo']);
  }, 30_000);

  it('waits for the user when the agent answers with text alone, and goes on with their reply', async () => {
    const rt = await agentRuntime();
    model.reply('Which two numbers?');
    expect(await say(rt, 'ask', 'add two numbers', 'start flow research')).toEqual([
      'Which two numbers?',
    ]);
    model.reply(
      { toolCalls: [{ name: 'add', arguments: { a: 4, b: 4 } }] },
      { text: 'That makes 8.', toolCalls: [{ name: 'task_completed', arguments: {} }] },
    );
    expect(await say(rt, 'ask', '4 and 4', '')).toEqual([
      'That makes 8.',
      'Research is over.',
      'Can I help you with anything else?',
    ]);
    // The second run sees the conversation so far as chat messages.
    expect(sent(1).slice(1)).toEqual([
      { role: 'user', content: 'add two numbers' },
      { role: 'assistant', content: 'Which two numbers?' },
      { role: 'user', content: '4 and 4' },
    ]);
  }, 30_000);

  it('fills the slots of a task-specific agent through set_slot tools and completes silently', async () => {
    const rt = await agentRuntime();
    model.reply({
      toolCalls: [
        { name: 'set_slot_dealer_name', arguments: { slot_value: 'Autohaus Nord' } },
        { name: 'set_slot_appointment_time', arguments: { slot_value: 'Friday 10:00' } },
      ],
    });
    expect(await say(rt, 'task', 'book me in', 'start flow book')).toEqual([
      'Booked at Autohaus Nord for Friday 10:00.',
      'Can I help you with anything else?',
    ]);
    const { tools } = request(0);
    expect(tools.map((t) => t.function.name).sort()).toEqual([
      'echo',
      'set_slot_appointment_time',
      'set_slot_dealer_name',
    ]);
    expect(sent(0)[0]?.content).toContain("['dealer_name', 'appointment_time']");
  }, 30_000);

  it('goes on until every exit_if condition holds, not just one of them', async () => {
    const rt = await agentRuntime();
    model.reply(
      { toolCalls: [{ name: 'set_slot_dealer_name', arguments: { slot_value: 'Autohaus Nord' } }] },
      {
        toolCalls: [
          { name: 'set_slot_appointment_time', arguments: { slot_value: 'Friday 10:00' } },
        ],
      },
    );
    expect(await say(rt, 'both', 'book me in', 'start flow book_both')).toEqual([
      'Booked at Autohaus Nord for Friday 10:00.',
      'Can I help you with anything else?',
    ]);
    expect(model.requests).toHaveLength(2);
    model.verify();
  }, 30_000);

  it('lets a task-specific agent set only the slots of its exit_if', async () => {
    const rt = await agentRuntime();
    model.reply(
      { toolCalls: [{ name: 'set_slot_dealer_name', arguments: { slot_value: 'Sneaky' } }] },
      { toolCalls: [{ name: 'set_slot_color', arguments: { slot_value: 'red' } }] },
    );
    expect(await say(rt, 'painter', 'paint it', 'start flow paint')).toEqual([
      'Painted red.',
      'Can I help you with anything else?',
    ]);
    expect(request(0).tools.map((t) => t.function.name)).not.toContain('set_slot_dealer_name');
    const refused = sent(1).find((m) => m.role === 'tool');
    expect(String(refused?.content)).toContain('set_slot_dealer_name');
    const slots = (await rt.store.readEvents('painter')).filter(
      (e) => e.event.event === 'slot' && e.event.name === 'dealer_name',
    );
    expect(slots).toEqual([]);
  }, 30_000);

  it("tells the model when a value does not fit a categorical slot, and takes the corrected one in the slot's spelling", async () => {
    const rt = await agentRuntime();
    model.reply(
      { toolCalls: [{ name: 'set_slot_color', arguments: { slot_value: 'green' } }] },
      { toolCalls: [{ name: 'set_slot_color', arguments: { slot_value: 'Blue' } }] },
    );
    expect(await say(rt, 'color', 'paint it', 'start flow paint')).toEqual([
      'Painted blue.',
      'Can I help you with anything else?',
    ]);
    const { tools } = request(0);
    expect(tools.find((t) => t.function.name === 'set_slot_color')?.function.description).toContain(
      "['red', 'blue']",
    );
    expect(sent(1).at(-1)).toMatchObject({
      role: 'tool',
      content: expect.stringMatching(
        /^Error: "green" does not fit the slot color: Expected one of red, blue/,
      ),
    });
  }, 30_000);

  it('answers malformed tool arguments with an error the model reads', async () => {
    const rt = await agentRuntime();
    model.reply(
      { toolCalls: [{ name: 'add', arguments: '{"a": 2, "b":' }] },
      { text: 'Sorry, done.', toolCalls: [{ name: 'task_completed', arguments: {} }] },
    );
    expect(await say(rt, 'malformed', 'add', 'start flow research')).toContain('Sorry, done.');
    expect(mcp.calls).toEqual([]);
    expect(sent(1).at(-1)).toMatchObject({
      role: 'tool',
      content: expect.stringMatching(/^Error: the arguments of add are not valid JSON/),
    });
  }, 30_000);

  it('retries a model that is briefly unavailable and fails the flow when it refuses for good', async () => {
    const rt = await agentRuntime();
    model.reply(
      { status: 503 },
      { text: 'All good.', toolCalls: [{ name: 'task_completed', arguments: {} }] },
    );
    expect(await say(rt, 'flaky', 'go', 'start flow research')).toEqual([
      'All good.',
      'Research is over.',
      'Can I help you with anything else?',
    ]);
    model.reply({ status: 401 });
    expect(await say(rt, 'refused', 'go', 'start flow research')).toEqual([INTERNAL_ERROR]);
    model.verify();
  }, 30_000);

  it('runs the hooks of a custom agent class: input, custom tools with call-time metadata, tool output, messages, completion tool', async () => {
    const rt = await agentRuntime();
    model.reply(
      {
        toolCalls: [
          { name: 'lookup_tenant', arguments: { q: 'who' } },
          { name: 'broken_meta', arguments: {} },
          { name: 'throws', arguments: {} },
          { name: 'odd', arguments: {} },
          { name: 'hangs', arguments: {} },
        ],
      },
      { text: 'Done.', toolCalls: [{ name: 'task_completed', arguments: {} }] },
    );
    expect(await say(rt, 'hooks', 'who am I?', 'start flow lookup')).toEqual([
      'Working on it.',
      'Done.',
      'Dealer now acme.',
      'Can I help you with anything else?',
    ]);
    const { tools } = request(0);
    expect(tools.map((t) => t.function.name).sort()).toEqual([
      'broken_meta',
      'echo',
      'hangs',
      'lookup_tenant',
      'odd',
      'task_completed',
      'throws',
    ]);
    expect(tools.find((t) => t.function.name === 'task_completed')?.function.description).toBe(
      'Finish with an offer to help more.',
    );
    const results = sent(1)
      .filter((m) => m.role === 'tool')
      .map((m) => m.content);
    expect(results[0]).toBe('{"q":"who","tenant":"acme","token":true,"keyed":true}');
    expect(results[1]).toMatch(
      /^Error: .*buildCustomToolCallMetadata of concierge.*returned a string/,
    );
    expect(results[2]).toBe('Error: the tool throws failed: the backend is down');
    expect(results[3]).toMatch(/^Error: the tool odd returned something other than/);
    expect(results[4]).toBe(
      'Error: the tool hangs failed: the tool hangs took longer than its tool_timeout of 1 s',
    );
    const custom = (await import(`${suite.assistant.projectDir}/custom/agents.ts`)) as {
      executed: string[];
    };
    expect(custom.executed).toEqual(['lookup_tenant']);
    // The call-time token reached the tool, but neither the model nor the store.
    expect(JSON.stringify(model.requests)).not.toContain('token-for-hooks');
    expect(await rt.scanTable()).not.toContain('token-for-hooks');
  }, 30_000);

  it('fails a run that works longer than its timeout with the internal-error pattern', async () => {
    const rt = await agentRuntime();
    model.reply({ text: 'Thinking…', delayMs: 3000 }, { text: 'Thinking…', delayMs: 3000 });
    expect(await say(rt, 'slow', 'take your time', 'start flow dawdle')).toEqual([INTERNAL_ERROR]);
    const reasons = await internalErrorReasons(rt, 'slow');
    expect(reasons, JSON.stringify(reasons)).toContain(
      'slowpoke did not finish within its timeout of 1 s',
    );
  }, 30_000);

  it('re-runs a model step whose commit was lost without a trace of the lost answer', async () => {
    const rt = await agentRuntime();
    model.reply(
      { text: 'Checking.', toolCalls: [{ name: 'echo', arguments: { text: 'lost' } }] },
      { text: 'Checking again.', toolCalls: [{ name: 'echo', arguments: { text: 'kept' } }] },
      { text: 'All done.', toolCalls: [{ name: 'task_completed', arguments: {} }] },
    );
    rt.llm.reply('start flow research');
    const job = userMessage('crash', 'go');
    await processJob(job, rt.deps, NEVER);
    const step0 = await rt.takeStep('crash');
    const crashing = storeWith(rt.store, {
      commit: async () => {
        throw new Error('the worker died');
      },
    });
    await expect(processJob(step0, { ...rt.deps, store: crashing }, NEVER)).rejects.toThrow(
      'the worker died',
    );
    expect(model.requests).toHaveLength(1);
    // The queue delivers the step again.
    expect(await processJob(step0, rt.deps, NEVER)).toBe('done');
    const step1 = await rt.takeStep('crash');
    // The tools step dies after its call reached the server: the call runs again with the same key.
    await expect(processJob(step1, { ...rt.deps, store: crashing }, NEVER)).rejects.toThrow(
      'the worker died',
    );
    expect(await processJob(step1, rt.deps, NEVER)).toBe('done');
    // The model's last answer calls task_completed, which ends the run in the same step.
    await processJob(await rt.takeStep('crash'), rt.deps, NEVER);

    const replies = await rt.replies.read('crash', job.turn_id);
    expect(replies.messages.map((m) => m.message.text)).toEqual([
      'Checking again.',
      'All done.',
      'Research is over.',
      'Can I help you with anything else?',
    ]);
    expect(mcp.calls.map((c) => c.arguments.text)).toEqual(['kept', 'kept']);
    const [first, second] = mcp.calls.map((c) => c.meta[IDEMPOTENCY_KEY_META]);
    expect(first).toBe(second);
    const bots = (await rt.store.readEvents('crash')).filter((e) => e.event.event === 'bot');
    expect(bots.map((e) => (e.event as { text?: string }).text)).not.toContain('Checking.');
  }, 30_000);

  /** Runs the next `steps` agent steps queued for the conversation, one after another. */
  async function runSteps(rt: TestRuntime, conversation: string, steps: number) {
    for (let i = 0; i < steps; i++)
      await processJob(await rt.takeStep(conversation), rt.deps, NEVER);
  }

  const texts = async (rt: TestRuntime, conversation: string, turnId: string) =>
    (await rt.replies.read(conversation, turnId)).messages.map((m) => m.message.text);

  it('keeps a message sent while the agent works and gives it to the agent when it asks for input', async () => {
    const rt = await agentRuntime();
    rt.llm.reply('start flow research', '', '');
    const first = userMessage('held', 'add some numbers');
    await processJob(first, rt.deps, NEVER);
    const second = userMessage('held', 'use 5 and 5');
    await processJob(second, rt.deps, NEVER);
    expect(await texts(rt, 'held', second.turn_id)).toEqual([
      "I'm still working on your request. I'll let you know as soon as it's done.",
    ]);
    model.reply(
      'Which numbers?',
      { toolCalls: [{ name: 'add', arguments: { a: 5, b: 5 } }] },
      { text: 'That is 10.', toolCalls: [{ name: 'task_completed', arguments: {} }] },
    );
    // The run asks for input; the held message answers it and starts the next run.
    await runSteps(rt, 'held', 4);
    expect(await texts(rt, 'held', first.turn_id)).toEqual([
      'Which numbers?',
      'That is 10.',
      'Research is over.',
      'Can I help you with anything else?',
    ]);
    // The held message answers the agent's question: it comes after it, and the pattern's
    // acknowledgement is not taken for the agent's words.
    expect(sent(1).slice(1)).toEqual([
      { role: 'user', content: 'add some numbers' },
      { role: 'assistant', content: 'Which numbers?' },
      { role: 'user', content: 'use 5 and 5' },
    ]);
    const users = (await rt.store.readEvents('held')).filter((e) => e.event.event === 'user');
    expect(users.map((e) => (e.event as { text: string }).text)).toEqual([
      'add some numbers',
      'use 5 and 5',
    ]);
    expect((await rt.store.load('held'))?.state.stack).toEqual([]);
  }, 30_000);

  it('handles a message sent while the agent works as a new turn once the agent has finished', async () => {
    const rt = await agentRuntime();
    rt.llm.reply('start flow research', 'start flow paint', 'start flow paint');
    const first = userMessage('after', 'research');
    await processJob(first, rt.deps, NEVER);
    await processJob(userMessage('after', 'and paint it later'), rt.deps, NEVER);
    model.reply(
      { text: 'Done.', toolCalls: [{ name: 'task_completed', arguments: {} }] },
      { toolCalls: [{ name: 'set_slot_color', arguments: { slot_value: 'red' } }] },
    );
    await runSteps(rt, 'after', 2);
    expect(await texts(rt, 'after', first.turn_id)).toEqual([
      'Done.',
      'Research is over.',
      'Can I help you with anything else?',
      'Painted red.',
      'Can I help you with anything else?',
    ]);
  }, 30_000);

  it('is interrupted by a digression and resumed with the question it had asked', async () => {
    const rt = await agentRuntime();
    model.reply('Which two numbers?');
    expect(await say(rt, 'digress', 'add numbers', 'start flow research')).toEqual([
      'Which two numbers?',
    ]);
    model.reply({ toolCalls: [{ name: 'set_slot_color', arguments: { slot_value: 'blue' } }] });
    const digression = await say(rt, 'digress', 'first paint it blue', 'start flow paint');
    expect(digression).toEqual(['Painted blue.', 'Shall we get back to research?']);
    model.reply('Which two numbers did you want to add?');
    const resumed = await say(
      rt,
      'digress',
      '/SetSlots(continue_interrupted_flow_confirmation=true)',
      '',
    );
    expect(resumed.at(-1)).toBe('Which two numbers did you want to add?');
    expect(rt.llm.prompts).toHaveLength(2);
    const system = sent(2)[0]?.content as string;
    expect(system).toContain('Before that, you had asked: Which two numbers?');
    // The answer that resumed the agent is not the user's message to it.
    expect(JSON.stringify(sent(2))).not.toContain('continue_interrupted');
    expect(sent(2).at(-1)).toMatchObject({
      role: 'assistant',
      content: 'Shall we get back to research?',
    });
  }, 30_000);

  it('starts afresh when restarted, with the previous run fenced off in the history', async () => {
    const rt = await agentRuntime();
    model.reply('Which two numbers?');
    await say(rt, 'restart', 'add numbers', 'start flow research');
    model.reply('Sure, what shall we do now?');
    expect(await say(rt, 'restart', 'forget that, start over', 'restart agent')).toEqual([
      'Sure, what shall we do now?',
    ]);
    const messages = sent(1);
    expect(messages[0]?.content).toContain('Previous run (completed).');
    expect(messages.slice(1)).toEqual([
      { role: 'user', content: 'add numbers' },
      { role: 'system', content: 'Previous run (completed).' },
      { role: 'assistant', content: 'Which two numbers?' },
      { role: 'system', content: 'End of the previous run; the current run starts here.' },
      { role: 'user', content: 'forget that, start over' },
    ]);
  }, 30_000);

  it("streams the model's text to a channel that shows previews; the delivered message stays whole", async () => {
    const previews: TextPreview[] = [];
    const batches: ReplyBatch[] = [];
    const live: Channel = {
      name: 'livechat',
      routes: [],
      streams: true,
      output: {
        deliver: async (batch) => {
          batches.push(batch);
        },
        preview: async (preview) => {
          previews.push(preview);
        },
      },
    };
    const rt = await agentRuntime({ channels: (context) => [...standardChannels(context), live] });
    rt.llm.reply('start flow research');
    const job = { ...userMessage('live', 'add 1 and 2'), channel: 'livechat' };
    await processJob(job, rt.deps, NEVER);
    model.reply(
      { text: 'Let me add that up.', toolCalls: [{ name: 'add', arguments: { a: 1, b: 2 } }] },
      { text: 'It is 3.', toolCalls: [{ name: 'task_completed', arguments: {} }] },
    );
    await runSteps(rt, 'live', 3);
    expect(request(0)).toMatchObject({ stream: true });
    expect(previews.map((p) => p.delta)).toEqual(['Let me add', ' that up.', 'It i', 's 3.']);
    expect(previews[0]).toMatchObject({
      conversationId: 'live',
      turnId: job.turn_id,
      channel: 'livechat',
    });
    // The agent's steps keep the conversation on the channel the user wrote on.
    expect((await rt.store.load('live'))?.channel).toBe('livechat');
    const delivered = batches.flatMap((b) => b.messages.map((m) => m.message.text));
    expect(delivered).toEqual([
      'Let me add that up.',
      'It is 3.',
      'Research is over.',
      'Can I help you with anything else?',
    ]);
  }, 30_000);

  it('asks for a whole answer, not a stream, for a channel that collects messages', async () => {
    const rt = await agentRuntime();
    model.reply('Which numbers?');
    await say(rt, 'collected', 'add', 'start flow research');
    expect(request(0)).toMatchObject({ stream: false });
  }, 30_000);

  it('runs the tool calls of one answer at the same time, each under its own idempotency key', async () => {
    const rt = await agentRuntime();
    model.reply(
      {
        toolCalls: [
          { name: 'together', arguments: {} },
          { name: 'together', arguments: {} },
        ],
      },
      { text: 'Both done.', toolCalls: [{ name: 'task_completed', arguments: {} }] },
    );
    expect(await say(rt, 'parallel', 'do both', 'start flow research')).toContain('Both done.');
    expect(
      sent(1)
        .filter((m) => m.role === 'tool')
        .map((m) => m.content),
    ).toEqual(['together', 'together']);
    // A server that drops repeated calls must not take the second for a repeat of the first.
    const keys = mcp.calls.map((c) => c.meta[IDEMPOTENCY_KEY_META]);
    expect(keys).toHaveLength(2);
    expect(new Set(keys).size).toBe(2);
  }, 30_000);

  it('ends a run that makes 30 model calls without finishing', async () => {
    const rt = await agentRuntime();
    model.reply(
      ...Array.from({ length: 30 }, (_, i) => ({
        toolCalls: [{ name: 'echo', arguments: { text: `round ${i + 1}` } }],
      })),
    );
    expect(await say(rt, 'endless', 'go', 'start flow research')).toEqual([INTERNAL_ERROR]);
    expect(model.requests).toHaveLength(30);
    expect(mcp.calls).toHaveLength(30);
    expect(await internalErrorReasons(rt, 'endless')).toEqual([
      'researcher made 30 model calls without finishing',
    ]);
  }, 60_000);

  it('fails the flow once a model that stays unavailable has had its retries', async () => {
    const rt = await agentRuntime();
    model.reply({ status: 503 }, { status: 503 }, { status: 503 }, { status: 503 });
    expect(await say(rt, 'down', 'go', 'start flow research')).toEqual([INTERNAL_ERROR]);
    expect(model.requests).toHaveLength(4);
    model.verify();
  }, 30_000);

  it('ends the run of a class whose sendMessage neither runs the step nor ends the run', async () => {
    const rt = await agentRuntime();
    expect(await say(rt, 'stalled', 'go', 'start flow stall')).toEqual([INTERNAL_ERROR]);
    expect(model.requests).toHaveLength(0);
  }, 30_000);

  it('ends the run when processToolOutput sets a slot the project does not have', async () => {
    const rt = await agentRuntime();
    model.reply({ toolCalls: [{ name: 'echo', arguments: { text: 'x' } }] });
    expect(await say(rt, 'sloppy', 'go', 'start flow sloppy_flow')).toEqual([INTERNAL_ERROR]);
    const reasons = await internalErrorReasons(rt, 'sloppy');
    expect(reasons).toContain(
      'processToolOutput of sloppy set no_such_slot, which is not a slot of the project',
    );
  }, 30_000);
});
