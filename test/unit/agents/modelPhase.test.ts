import { describe, expect, it } from 'vitest';
import { closingCall, modelCall } from '../../../src/agents/modelPhase.js';
import type { CustomToolDefinition } from '../../../src/agents/protocol.js';
import { McpOpenAgent, McpTaskAgent } from '../../../src/agents/reactAgent.js';
import type { ReactRunData } from '../../../src/agents/runData.js';
import { StepState } from '../../../src/agents/stepState.js';
import type { Assistant, ReactSubAgent } from '../../../src/assistant/index.js';
import type {
  ToolChatPort,
  ToolChatRequest,
  ToolChatResponse,
  ToolDefinition,
} from '../../../src/llm/index.js';
import type {
  AgentTool,
  AgentToolCall,
  McpAgentTools,
  McpCallOptions,
} from '../../../src/mcp/index.js';

/** 2026-06-28 09:54:56 UTC. */
const NOW = 1_782_640_496_789;
const DEADLINE = NOW + 30_000;

/** A model that gives its scripted answers in turn, records each request and fails past the script. */
class ScriptedModel implements ToolChatPort {
  readonly requests: ToolChatRequest[] = [];
  constructor(
    private readonly answers: (
      | ToolChatResponse
      | ((request: ToolChatRequest) => ToolChatResponse)
    )[],
  ) {}

  async chat(request: ToolChatRequest): Promise<ToolChatResponse> {
    this.requests.push(request);
    const answer = this.answers.shift();
    if (!answer) throw new Error(`unexpected model call ${this.requests.length}`);
    return typeof answer === 'function' ? answer(request) : answer;
  }
}

/** A prompt that shows what the template was given. */
const PROMPT =
  'Agent: {{ description }}\nSlots: {{ slot_names }}\n' +
  '{% if current_datetime %}Date: {{ current_datetime.strftime("%d %B, %Y") }}\n{% endif %}' +
  '{% if resumed_last_request %}Last asked: {{ resumed_last_request }}\n{% endif %}';

interface Setup {
  readonly kind?: 'open' | 'task';
  readonly model: ScriptedModel;
  readonly mcpTools?: readonly AgentTool[];
  readonly exitIf?: readonly string[];
  readonly includeDateTime?: boolean;
  readonly fillers?: boolean;
  readonly resumed?: boolean;
  readonly lastMessage?: unknown;
  readonly modelCalls?: number;
  readonly closing?: boolean;
  readonly controller?: AbortController;
  readonly deadline?: number;
  /** Custom tools of the agent. */
  readonly custom?: readonly CustomToolDefinition[];
}

function stepWith(setup: Setup): {
  step: StepState;
  listed: McpCallOptions[];
  called: AgentToolCall[];
} {
  const config: ReactSubAgent = {
    name: 'booker',
    description: 'Books test drives.',
    dir: '/project/sub_agents/booker',
    protocol: 'RASA',
    configuration: {
      max_retries: 2,
      include_date_time: setup.includeDateTime ?? false,
      timezone: 'UTC',
      enable_filler_messages: setup.fillers ?? true,
    },
    mcpServers: [],
    promptTemplate: { file: 'prompt.jinja2', text: PROMPT },
  };
  const listed: McpCallOptions[] = [];
  const called: AgentToolCall[] = [];
  const tools = {
    list: async (options: McpCallOptions) => {
      listed.push(options);
      return [...(setup.mcpTools ?? [])];
    },
    call: async (call: AgentToolCall) => {
      called.push(call);
      return { text: `${call.toolName} answered`, isError: false };
    },
  } as unknown as McpAgentTools;
  const assistant = {
    slots: { dealer_name: { type: 'text' }, appointment_time: { type: 'text' } },
  } as unknown as Assistant;
  const data: ReactRunData = {
    agentId: 'booker',
    input: {
      id: 'run-1',
      userMessage: 'Book a test drive.',
      slots: [],
      conversationHistory: '',
      events: [],
      metadata: setup.lastMessage === undefined ? {} : { last_message: setup.lastMessage },
    },
    inputReady: true,
    ...(setup.exitIf ? { exitIf: [...setup.exitIf] } : {}),
    resumed: setup.resumed ?? false,
    restarted: false,
    modelCalls: setup.modelCalls ?? 0,
    messages: [],
    ...(setup.closing ? { closing: true } : {}),
    events: [],
    results: [],
  };
  const custom = setup.custom ?? [];
  const agent =
    setup.kind === 'task'
      ? new (class extends McpTaskAgent {
          override getCustomToolDefinitions() {
            return custom;
          }
        })(config)
      : new (class extends McpOpenAgent {
          override getCustomToolDefinitions() {
            return custom;
          }
        })(config);
  const step = new StepState(
    { assistant, models: () => setup.model, tools: () => tools },
    config,
    agent,
    data,
    {
      conversationId: 'conversation-1',
      runId: 'run-1',
      signal: (setup.controller ?? new AbortController()).signal,
      ...(setup.deadline !== undefined ? { deadline: setup.deadline } : {}),
    },
    () => NOW,
  );
  return { step, listed, called };
}

const names = (tools: readonly ToolDefinition[] | undefined) =>
  (tools ?? []).map((t) => t.function.name);

describe('modelCall', () => {
  it('offers the MCP tools and task_completed, and sends the prompt and the user message', async () => {
    const model = new ScriptedModel([{ content: 'Which dealer?', toolCalls: [] }]);
    const schema = { type: 'object', properties: { text: { type: 'string' } } };
    const { step, listed } = stepWith({
      model,
      deadline: DEADLINE,
      mcpTools: [
        {
          name: 'find_dealer',
          description: 'Finds a dealer.',
          inputSchema: schema,
          serverName: 's',
          readOnly: false,
        },
        { name: 'echo', inputSchema: schema, serverName: 's', readOnly: false },
      ],
    });

    const result = await modelCall(step);

    expect(result.output).toEqual({
      id: 'run-1',
      status: 'input_required',
      responseMessage: 'Which dealer?',
    });
    expect(listed).toEqual([{ signal: step.context.signal, deadline: DEADLINE, maxRetries: 2 }]);
    const [request] = model.requests;
    expect(request?.tools?.slice(0, 2)).toEqual([
      {
        type: 'function',
        function: { name: 'find_dealer', description: 'Finds a dealer.', parameters: schema },
      },
      { type: 'function', function: { name: 'echo', parameters: schema } },
    ]);
    expect(names(request?.tools)).toEqual(['find_dealer', 'echo', 'task_completed']);
    expect(request?.toolChoice).toBe('auto');
    expect(request?.deadline).toBe(DEADLINE);
    expect(request?.messages).toEqual([
      { role: 'system', content: 'Agent: Books test drives.\nSlots: ' },
      { role: 'user', content: 'Book a test drive.' },
    ]);
  });

  it('gives a task agent a slot tool and the name of each slot its exit conditions read', async () => {
    const model = new ScriptedModel([{ content: 'Which dealer?', toolCalls: [] }]);
    const { step } = stepWith({
      kind: 'task',
      model,
      exitIf: ['slots.dealer_name is not null and slots.appointment_time is not null'],
    });

    await modelCall(step);

    const [request] = model.requests;
    expect(names(request?.tools)).toEqual(['set_slot_dealer_name', 'set_slot_appointment_time']);
    expect(request?.messages[0]?.content).toContain("Slots: ['dealer_name', 'appointment_time']");
  });

  it('gives an open agent neither slot tools nor slot names, even with exit conditions', async () => {
    const model = new ScriptedModel([{ content: 'Which dealer?', toolCalls: [] }]);
    const { step } = stepWith({ model, exitIf: ['slots.dealer_name is not null'] });

    await modelCall(step);

    const [request] = model.requests;
    expect(names(request?.tools)).toEqual(['task_completed']);
    expect(request?.messages[0]?.content).toBe('Agent: Books test drives.\nSlots: ');
  });

  it('puts the date in the prompt when include_date_time is on', async () => {
    const model = new ScriptedModel([{ content: 'Which dealer?', toolCalls: [] }]);
    const { step } = stepWith({ model, includeDateTime: true });

    await modelCall(step);

    expect(model.requests[0]?.messages[0]?.content).toContain('Date: 28 June, 2026');
  });

  it('tells a resumed agent what it last asked', async () => {
    const model = new ScriptedModel([{ content: 'Which dealer?', toolCalls: [] }]);
    const { step } = stepWith({ model, resumed: true, lastMessage: 'Which dealer?' });

    await modelCall(step);

    expect(model.requests[0]?.messages[0]?.content).toContain('Last asked: Which dealer?');
  });

  it('does not tell an agent that was not resumed what it last asked', async () => {
    const model = new ScriptedModel([{ content: 'Which dealer?', toolCalls: [] }]);
    const { step } = stepWith({ model, resumed: false, lastMessage: 'Which dealer?' });

    await modelCall(step);

    expect(model.requests[0]?.messages[0]?.content).not.toContain('Last asked');
  });

  it('does not tell a resumed agent a last request that is not text', async () => {
    const model = new ScriptedModel([{ content: 'Which dealer?', toolCalls: [] }]);
    const { step } = stepWith({ model, resumed: true, lastMessage: { text: 'Which dealer?' } });

    await modelCall(step);

    expect(model.requests[0]?.messages[0]?.content).not.toContain('Last asked');
  });

  it('fails with a transient error when the model answers with only blanks', async () => {
    const model = new ScriptedModel([{ content: '  \n', toolCalls: [] }]);
    const { step } = stepWith({ model });

    const error = await modelCall(step).catch((e: unknown) => e);

    expect(error).toMatchObject({
      name: 'EmptyAnswerError',
      code: 'MODEL_ANSWER_EMPTY',
      transient: true,
      message: 'the model answered with neither text nor a tool call',
    });
  });

  it('answers the user with the trimmed text', async () => {
    const model = new ScriptedModel([{ content: '  Which dealer?\n', toolCalls: [] }]);
    const { step } = stepWith({ model });

    const result = await modelCall(step);

    expect(result.output?.responseMessage).toBe('Which dealer?');
  });

  it('fails with the reason of an abort that came while the model answered', async () => {
    const controller = new AbortController();
    const model = new ScriptedModel([
      () => {
        controller.abort(new Error('the conversation was cancelled'));
        return { content: 'Which dealer?', toolCalls: [] };
      },
    ]);
    const { step } = stepWith({ model, controller });

    await expect(modelCall(step)).rejects.toThrow('the conversation was cancelled');
  });

  it('numbers the tool calls that came without an id by model call and position', async () => {
    const model = new ScriptedModel([
      {
        content: '',
        toolCalls: [
          { id: '', name: 'find_dealer', arguments: '{}' },
          { id: 'call_abc', name: 'echo', arguments: '{}' },
          { id: '', name: 'echo', arguments: '{"text":"hi"}' },
        ],
      },
    ]);
    const { step } = stepWith({ model, modelCalls: 2 });

    await modelCall(step);

    expect(step.data.pending?.map((c) => c.id)).toEqual(['call_3_0', 'call_abc', 'call_3_2']);
  });

  it('keeps the text with task_completed of an open agent for the end of the run', async () => {
    const model = new ScriptedModel([
      {
        content: 'Enjoy the drive!',
        toolCalls: [{ id: 'call_1', name: 'task_completed', arguments: '{}' }],
      },
    ]);
    const { step } = stepWith({ model });

    const result = await modelCall(step);

    expect(result.messages).toEqual([]);
    expect(step.data.completedWith).toBe('Enjoy the drive!');
    // task_completed changes only the run: it runs in the same step, which ends the run.
    expect(result.output).toEqual({
      id: 'run-1',
      status: 'completed',
      responseMessage: 'Enjoy the drive!',
    });
  });

  it('shows the text of a task agent as a filler, even with a tool named task_completed', async () => {
    const model = new ScriptedModel([
      {
        content: 'One moment.',
        toolCalls: [{ id: 'call_1', name: 'task_completed', arguments: '{}' }],
      },
    ]);
    const { step } = stepWith({
      kind: 'task',
      model,
      exitIf: ['slots.dealer_name is not null'],
    });

    const result = await modelCall(step);

    expect(result.messages).toEqual([
      { text: 'One moment.', metadata: { filler: true, agent_id: 'booker' } },
    ]);
    expect(step.data.completedWith).toBeUndefined();
  });
});

describe('modelCall with tools that only read', () => {
  const schema = { type: 'object' };
  const mcpTool = (name: string, readOnly: boolean): AgentTool => ({
    name,
    inputSchema: schema,
    serverName: 's',
    readOnly,
  });
  const customTool = (name: string, readOnly?: boolean): CustomToolDefinition => ({
    type: 'function',
    function: { name, parameters: schema },
    ...(readOnly === undefined ? {} : { readOnly }),
    toolExecutor: () => ({ toolName: name, result: `${name} ran` }),
  });
  const asking = (...calls: string[]): ToolChatResponse => ({
    content: 'Let me look.',
    toolCalls: calls.map((name, i) => ({ id: `call_${i}`, name, arguments: '{}' })),
  });

  it('runs the calls in the same step when every one only reads, after the filler', async () => {
    const model = new ScriptedModel([asking('find_dealer', 'list_slots')]);
    const { step, called } = stepWith({
      model,
      mcpTools: [mcpTool('find_dealer', true), mcpTool('list_slots', true)],
    });

    const result = await modelCall(step);

    expect(called.map((c) => c.toolName)).toEqual(['find_dealer', 'list_slots']);
    expect(result).toEqual({
      messages: [{ text: 'Let me look.', metadata: { filler: true, agent_id: 'booker' } }],
    });
    expect(step.data.pending).toBeUndefined();
    expect(step.data.messages.slice(1)).toEqual([
      { role: 'tool', toolCallId: 'call_0', content: 'find_dealer answered' },
      { role: 'tool', toolCallId: 'call_1', content: 'list_slots answered' },
    ]);
    expect(step.data.modelCalls).toBe(1);
  });

  it('leaves every call for the next step when one of them may change something', async () => {
    const model = new ScriptedModel([asking('find_dealer', 'book')]);
    const { step, called } = stepWith({
      model,
      mcpTools: [mcpTool('find_dealer', true), mcpTool('book', false)],
    });

    const result = await modelCall(step);

    expect(called).toEqual([]);
    expect(step.data.pending?.map((c) => c.name)).toEqual(['find_dealer', 'book']);
    expect(result.output).toBeUndefined();
  });

  it('runs a custom tool declared read-only in the same step, and no other custom tool', async () => {
    const readOnly = stepWith({
      model: new ScriptedModel([asking('quote')]),
      custom: [customTool('quote', true)],
    });
    const unmarked = stepWith({
      model: new ScriptedModel([asking('order')]),
      custom: [customTool('order')],
    });

    await modelCall(readOnly.step);
    await modelCall(unmarked.step);

    expect(readOnly.step.data.pending).toBeUndefined();
    expect(readOnly.step.data.messages.at(-1)).toEqual({
      role: 'tool',
      toolCallId: 'call_0',
      content: 'quote ran',
    });
    expect(unmarked.step.data.pending?.map((c) => c.name)).toEqual(['order']);
  });

  it('goes by the custom tool when it shadows a read-only MCP tool of the same name', async () => {
    const { step, called } = stepWith({
      model: new ScriptedModel([asking('find_dealer')]),
      mcpTools: [mcpTool('find_dealer', true)],
      custom: [customTool('find_dealer', false)],
    });

    await modelCall(step);

    expect(called).toEqual([]);
    expect(step.data.pending?.map((c) => c.name)).toEqual(['find_dealer']);
  });

  it("ends a task agent's run in the step whose slot tools meet its exit conditions", async () => {
    const model = new ScriptedModel([
      {
        content: '',
        toolCalls: [
          { id: 'call_0', name: 'set_slot_dealer_name', arguments: '{"slot_value":"Autohaus"}' },
        ],
      },
    ]);
    const { step } = stepWith({ kind: 'task', model, exitIf: ['slots.dealer_name is not null'] });

    const result = await modelCall(step);

    expect(result.output).toEqual({
      id: 'run-1',
      status: 'completed',
      events: [{ event: 'slot', name: 'dealer_name', value: 'Autohaus' }],
    });
  });
});

describe('closingCall', () => {
  it('asks the model without tools for the closing line, within the deadline', async () => {
    const model = new ScriptedModel([{ content: '  Enjoy the drive!\n', toolCalls: [] }]);
    const { step, listed } = stepWith({ model, closing: true, modelCalls: 4, deadline: DEADLINE });

    const result = await closingCall(step);

    expect(result).toEqual({
      messages: [],
      output: { id: 'run-1', status: 'completed', responseMessage: 'Enjoy the drive!' },
    });
    const [request] = model.requests;
    expect(request?.toolChoice).toBe('none');
    expect(request?.deadline).toBe(DEADLINE);
    expect(listed).toEqual([{ signal: step.context.signal, deadline: DEADLINE, maxRetries: 2 }]);
    expect(request?.messages.at(-1)).toMatchObject({
      role: 'system',
      content: expect.stringContaining('Your task is complete. Do not call any tool.'),
    });
  });

  it('counts the closing call as a model call and leaves the closing phase', async () => {
    const model = new ScriptedModel([{ content: 'Enjoy the drive!', toolCalls: [] }]);
    const { step } = stepWith({ model, closing: true, modelCalls: 4 });

    await closingCall(step);

    expect(step.data.modelCalls).toBe(5);
    expect(step.data.closing).toBe(false);
  });

  it('completes without a closing line when the model answers with only blanks', async () => {
    const model = new ScriptedModel([{ content: ' \n ', toolCalls: [] }]);
    const { step } = stepWith({ model, closing: true, modelCalls: 4 });

    const result = await closingCall(step);

    expect(result.output).toEqual({ id: 'run-1', status: 'completed' });
  });

  it('fails with the reason of an abort that came while the model answered', async () => {
    const controller = new AbortController();
    const model = new ScriptedModel([
      () => {
        controller.abort(new Error('the conversation was cancelled'));
        return { content: 'Enjoy the drive!', toolCalls: [] };
      },
    ]);
    const { step } = stepWith({ model, controller, closing: true, modelCalls: 4 });

    await expect(closingCall(step)).rejects.toThrow('the conversation was cancelled');
  });
});
