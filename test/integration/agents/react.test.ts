import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { projectAgents } from '../../../src/agents/index.js';
import { OpenAiChatModel } from '../../../src/llm/index.js';
import { IDEMPOTENCY_KEY_META, McpGateway } from '../../../src/mcp/index.js';
import { startTestMcpServer, type TestMcpServer } from '../../helpers/mcpTestServer.js';
import { runtimeSuite, type TestRuntime, userMessage } from '../../helpers/runtime.js';
import { ScriptedOpenAi } from '../../helpers/scriptedOpenAi.js';

let mcp: TestMcpServer;
beforeAll(async () => {
  mcp = await startTestMcpServer();
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
  async function agentRuntime(): Promise<TestRuntime> {
    gateway = new McpGateway({ assistant: suite.assistant, secrets: { get: async () => '' } });
    const chat = new OpenAiChatModel({
      model: 'scripted',
      apiKey: 'sk-test',
      baseURL: model.url,
      maxRetries: 0,
    });
    const runners = await projectAgents({
      assistant: suite.assistant,
      models: () => chat,
      gateway,
    });
    return suite.runtime({ runners });
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
});
