import { beforeAll, describe, expect, it } from 'vitest';
import {
  type AgentStep,
  type AgentStepResult,
  MAX_MODEL_CALLS,
  McpOpenAgent,
  McpTaskAgent,
  type ReactRunData,
  ReactRunner,
  type ReactRunnerOptions,
} from '../../../src/agents/index.js';
import type { AgentInput, Assistant } from '../../../src/assistant/index.js';
import type { ToolChatRequest, ToolChatResponse } from '../../../src/llm/index.js';
import type { McpAgentTools } from '../../../src/mcp/index.js';
import { SwitchboardError } from '../../../src/resilience/index.js';
import type { StepContext } from '../../../src/runtime/index.js';
import { assistantFrom } from '../../helpers/dialogue.js';

const FILES = {
  'endpoints.yml': 'mcp_servers:\n  - name: tools\n    url: http://127.0.0.1:9000/mcp\n',
  'domain.yml': `slots:
  dealer_name:
    type: text
  appointment_time:
    type: text
responses:
  utter_ok:
    - text: OK.
`,
  'data/flows.yml': `flows:
  research:
    description: Research.
    steps:
      - call: researcher
  book:
    description: Book.
    steps:
      - call: booker
        exit_if:
          - slots.dealer_name is not null
          - slots.appointment_time is not null
`,
  'sub_agents/researcher/config.yml': `agent:
  name: researcher
  description: Researches.
configuration:
  include_date_time: false
connections:
  mcp_servers:
    - name: tools
`,
  'sub_agents/booker/config.yml': `agent:
  name: booker
  description: Books appointments.
configuration:
  include_date_time: false
  timeout: 2
connections:
  mcp_servers:
    - name: tools
`,
};

const STARTED_AT = Date.parse('2026-03-01T10:00:00.000Z');
const BOTH_SLOTS = ['slots.dealer_name is not null', 'slots.appointment_time is not null'];

let assistant: Assistant;
beforeAll(async () => {
  assistant = await assistantFrom(FILES);
});

type Reply = ToolChatResponse | Error;

/** A failure of the model's provider that a later try may get past. */
class ModelBusyError extends SwitchboardError {
  override readonly name = 'ModelBusyError';
  override readonly code = 'MODEL_BUSY';
}

/** A tool-calling model that answers from a script and fails on a call it was not given. */
class ScriptedModel {
  readonly requests: ToolChatRequest[] = [];
  constructor(private readonly replies: Reply[] = []) {}

  async chat(request: ToolChatRequest): Promise<ToolChatResponse> {
    this.requests.push(request);
    const next = this.replies.shift();
    if (next === undefined) throw new Error(`unexpected model call #${this.requests.length}`);
    if (next instanceof Error) throw next;
    return next;
  }
}

/** MCP tools of an agent whose servers offer none; a call to one fails the test. */
const NO_TOOLS = {
  list: async () => [],
  call: async () => {
    throw new Error('unexpected MCP tool call');
  },
} as unknown as McpAgentTools;

/** One MCP tool, `lookup`, that the project does not declare read-only. */
const LOOKUP = {
  list: async () => [
    { name: 'lookup', inputSchema: { type: 'object' }, serverName: 'tools', readOnly: false },
  ],
  call: async () => ({ text: 'found', isError: false }),
} as unknown as McpAgentTools;

function toolCall(name: string, args: Record<string, unknown> = {}, content = '') {
  return { content, toolCalls: [{ id: `call_${name}`, name, arguments: JSON.stringify(args) }] };
}

function input(overrides: Partial<AgentInput> = {}): AgentInput {
  return {
    id: 'input-1',
    userMessage: 'book me in',
    slots: [],
    conversationHistory: 'USER: book me in',
    events: [],
    metadata: {},
    timestamp: new Date(STARTED_AT).toISOString(),
    ...overrides,
  };
}

function context(overrides: Partial<StepContext> = {}): StepContext {
  return {
    conversationId: 'c1',
    runId: 'run-1',
    signal: new AbortController().signal,
    ...overrides,
  };
}

/** A runner over the test project whose clock reads `clock.now`. */
function runnerWith(model: ScriptedModel, extra: Partial<ReactRunnerOptions> = {}) {
  const clock = { now: STARTED_AT };
  const runner = new ReactRunner({
    assistant,
    models: () => model,
    tools: () => NO_TOOLS,
    now: () => clock.now,
    ...extra,
  });
  return { runner, clock };
}

function startRun(
  runner: ReactRunner,
  agentName: string,
  options: { exitIf?: readonly string[]; input?: AgentInput } = {},
): ReactRunData {
  const agent = assistant.agents[agentName];
  if (!agent) throw new Error(`the project has no ${agentName}`);
  return runner.start({
    agent,
    frameId: 'frame-1',
    input: options.input ?? input(),
    ...(options.exitIf ? { exitIf: options.exitIf } : {}),
    resumed: false,
    restarted: false,
  });
}

function fatal(errorMessage: string) {
  return { type: 'done', output: { id: 'input-1', status: 'fatal_error', errorMessage } };
}

describe('ReactRunner', () => {
  it('ends the run with a fatal error when no ReAct agent of that name is configured', async () => {
    const model = new ScriptedModel();
    const { runner } = runnerWith(model);
    const data = { ...startRun(runner, 'researcher'), agentId: 'nobody' };

    const result = await runner.step(data, context());

    expect(result.next).toEqual(fatal('no ReAct agent named nobody is configured'));
    expect(model.requests).toEqual([]);
  });

  it('works without custom agent classes: a step asking for a tool continues the run', async () => {
    const model = new ScriptedModel([toolCall('lookup', { q: 'x' }, 'Looking.')]);
    const { runner } = runnerWith(model, { tools: () => LOOKUP });

    const result = await runner.step(startRun(runner, 'researcher'), context());

    expect(result.next).toEqual({ type: 'continue' });
    expect(result.data.pending).toEqual([
      { id: 'call_lookup', name: 'lookup', arguments: '{"q":"x"}' },
    ]);
  });

  it('ends the run in the step whose answer calls task_completed, which changes only the run', async () => {
    const model = new ScriptedModel([toolCall('task_completed', {}, 'All done.')]);
    const { runner } = runnerWith(model);

    const result = await runner.step(startRun(runner, 'researcher'), context());

    expect(result.next).toEqual({
      type: 'done',
      output: { id: 'input-1', status: 'completed', responseMessage: 'All done.' },
    });
    expect(result.data.pending).toBeUndefined();
  });

  it('refuses to run a task-specific agent class on a step without exit_if', async () => {
    class Booker extends McpTaskAgent {}
    const model = new ScriptedModel();
    const { runner } = runnerWith(model, { classes: { researcher: Booker } });

    const withoutExitIf = await runner.step(startRun(runner, 'researcher'), context());
    const withEmptyExitIf = await runner.step(
      startRun(runner, 'researcher', { exitIf: [] }),
      context(),
    );

    const reason = 'researcher is a task-specific agent, but its step has no exit_if';
    expect(withoutExitIf.next).toEqual(fatal(reason));
    expect(withEmptyExitIf.next).toEqual(fatal(reason));
    expect(model.requests).toEqual([]);
  });

  it('runs an agent as task-specific on a step with exit_if and as general-purpose on one without', async () => {
    const model = new ScriptedModel([
      toolCall('set_slot_dealer_name', { slot_value: 'Autohaus' }),
      toolCall('task_completed', {}, 'Found it.'),
    ]);
    const { runner } = runnerWith(model);

    await runner.step(startRun(runner, 'researcher', { exitIf: BOTH_SLOTS }), context());
    await runner.step(startRun(runner, 'researcher'), context());

    const toolNames = model.requests.map((r) => r.tools?.map((t) => t.function.name));
    expect(toolNames).toEqual([
      ['set_slot_dealer_name', 'set_slot_appointment_time'],
      ['task_completed'],
    ]);
  });

  it('builds each custom agent once and keeps it for later steps and runs', async () => {
    const built: string[] = [];
    class Counted extends McpOpenAgent {
      constructor(...args: ConstructorParameters<typeof McpOpenAgent>) {
        super(...args);
        built.push(this.config.name);
      }
    }
    const model = new ScriptedModel([
      toolCall('lookup'),
      toolCall('task_completed', {}, 'Done.'),
      toolCall('task_completed', {}, 'Done again.'),
    ]);
    const { runner } = runnerWith(model, {
      classes: { researcher: Counted },
      tools: () => LOOKUP,
    });

    const first = await runner.step(startRun(runner, 'researcher'), context());
    const second = await runner.step(first.data, context());
    const third = await runner.step(second.data, context());
    const otherRun = await runner.step(startRun(runner, 'researcher'), context());

    expect(third.next).toMatchObject({ type: 'done', output: { responseMessage: 'Done.' } });
    expect(otherRun.next).toMatchObject({
      type: 'done',
      output: { responseMessage: 'Done again.' },
    });
    expect(built).toEqual(['researcher']);
  });

  it('reshapes the input with processInput once per run, and later steps keep the reshaped input', async () => {
    const seen: string[] = [];
    class Reshaping extends McpOpenAgent {
      override async processInput(agentInput: AgentInput): Promise<AgentInput> {
        seen.push(agentInput.userMessage);
        return { ...agentInput, userMessage: `${agentInput.userMessage} (checked)` };
      }
    }
    const model = new ScriptedModel([toolCall('lookup')]);
    const { runner } = runnerWith(model, {
      classes: { researcher: Reshaping },
      tools: () => LOOKUP,
    });

    const first = await runner.step(startRun(runner, 'researcher'), context());
    const second = await runner.step(first.data, context());

    expect(seen).toEqual(['book me in']);
    expect(second.data.input.userMessage).toBe('book me in (checked)');
    expect(second.data.inputReady).toBe(true);
  });

  it('ends the run with a fatal error once its configured timeout has passed', async () => {
    const model = new ScriptedModel();
    const { runner, clock } = runnerWith(model);
    clock.now = STARTED_AT + 2_000;

    const result = await runner.step(startRun(runner, 'booker', { exitIf: BOTH_SLOTS }), context());

    expect(result.next).toEqual(fatal('booker did not finish within its timeout of 2 s'));
    expect(model.requests).toEqual([]);
  });

  it('runs a step while its configured timeout has not passed, with the timeout as the deadline', async () => {
    const model = new ScriptedModel([toolCall('set_slot_dealer_name', { slot_value: 'Autohaus' })]);
    const { runner, clock } = runnerWith(model);
    clock.now = STARTED_AT + 1_999;

    const result = await runner.step(startRun(runner, 'booker', { exitIf: BOTH_SLOTS }), context());

    expect(result.next).toEqual({ type: 'continue' });
    expect(model.requests.map((r) => r.deadline)).toEqual([STARTED_AT + 2_000]);
  });

  it("passes the job's deadline when it comes before the agent's timeout", async () => {
    const model = new ScriptedModel([toolCall('set_slot_dealer_name', { slot_value: 'Autohaus' })]);
    const { runner } = runnerWith(model);

    await runner.step(
      startRun(runner, 'booker', { exitIf: BOTH_SLOTS }),
      context({ deadline: STARTED_AT + 500 }),
    );

    expect(model.requests.map((r) => r.deadline)).toEqual([STARTED_AT + 500]);
  });

  it('has no time limit for an agent without a timeout, however long the run has been going', async () => {
    const model = new ScriptedModel([{ content: 'Which dealer?', toolCalls: [] }]);
    const { runner, clock } = runnerWith(model);
    clock.now = STARTED_AT + 24 * 3_600_000;

    const result = await runner.step(startRun(runner, 'researcher'), context());

    expect(result.next).toEqual({
      type: 'done',
      output: { id: 'input-1', status: 'input_required', responseMessage: 'Which dealer?' },
    });
    expect(model.requests.map((r) => r.deadline)).toEqual([undefined]);
  });

  it('counts the timeout from when the step first ran when the invocation carried no time', async () => {
    const model = new ScriptedModel([toolCall('set_slot_dealer_name', { slot_value: 'Autohaus' })]);
    const { runner, clock } = runnerWith(model);
    const { timestamp: _, ...untimed } = input();
    clock.now = STARTED_AT + 60_000;

    const result = await runner.step(
      startRun(runner, 'booker', { exitIf: BOTH_SLOTS, input: untimed }),
      context(),
    );

    expect(result.next).toEqual({ type: 'continue' });
    expect(result.data.startedAt).toBe(STARTED_AT + 60_000);
    expect(model.requests.map((r) => r.deadline)).toEqual([STARTED_AT + 62_000]);
  });

  it('goes on while only some of the exit conditions hold, and completes silently once all do', async () => {
    const model = new ScriptedModel([
      toolCall('set_slot_dealer_name', { slot_value: 'Autohaus' }),
      toolCall('set_slot_appointment_time', { slot_value: 'Monday 9:00' }),
    ]);
    const { runner } = runnerWith(model);

    // The slot tools change only the run: each step sets its slot and checks the conditions.
    const oneSet = await runner.step(startRun(runner, 'booker', { exitIf: BOTH_SLOTS }), context());
    const bothSet = await runner.step(oneSet.data, context());

    expect(oneSet.next).toEqual({ type: 'continue' });
    expect(bothSet.next).toEqual({
      type: 'done',
      output: {
        id: 'input-1',
        status: 'completed',
        events: [
          { event: 'slot', name: 'dealer_name', value: 'Autohaus' },
          { event: 'slot', name: 'appointment_time', value: 'Monday 9:00' },
        ],
      },
    });
  });

  it(`stops a run that made ${MAX_MODEL_CALLS} model calls without finishing`, async () => {
    const model = new ScriptedModel([toolCall('lookup')]);
    const { runner } = runnerWith(model, { tools: () => LOOKUP });
    const data = startRun(runner, 'researcher');

    const lastAllowed = await runner.step({ ...data, modelCalls: MAX_MODEL_CALLS - 1 }, context());
    const overTheLimit = await runner.step({ ...data, modelCalls: MAX_MODEL_CALLS }, context());

    expect(lastAllowed.next).toEqual({ type: 'continue' });
    expect(overTheLimit.next).toEqual(
      fatal(`researcher made ${MAX_MODEL_CALLS} model calls without finishing`),
    );
    expect(model.requests).toHaveLength(1);
  });

  it("retries a step whose model failed transiently, after the wait the failure names, with the run's data unchanged", async () => {
    const busy = new ModelBusyError('the model is busy', { transient: true, retryAfterMs: 5_000 });
    const model = new ScriptedModel([busy]);
    const { runner } = runnerWith(model);
    const data = startRun(runner, 'researcher');

    const result = await runner.step(data, context());

    expect(result).toEqual({
      data,
      next: { type: 'retry', reason: 'the model is busy', retryAfterMs: 5_000 },
    });
  });

  it('ends the run with a fatal error when the model fails for good', async () => {
    const model = new ScriptedModel([new Error('invalid API key')]);
    const { runner } = runnerWith(model);

    const result = await runner.step(startRun(runner, 'researcher'), context());

    expect(result.next).toEqual(fatal('invalid API key'));
  });

  it('lets the failure of a cancelled step through instead of ending the run', async () => {
    const controller = new AbortController();
    const cancelled = new Error('the step was cancelled');
    const model = {
      chat: async (): Promise<ToolChatResponse> => {
        controller.abort();
        throw cancelled;
      },
    };
    const runner = new ReactRunner({ assistant, models: () => model, tools: () => NO_TOOLS });

    await expect(
      runner.step(startRun(runner, 'researcher'), context({ signal: controller.signal })),
    ).rejects.toBe(cancelled);
  });

  it('ends the run with a fatal error when sendMessage neither ran the step nor ended the run', async () => {
    class Idle extends McpOpenAgent {
      override async sendMessage(_input: AgentInput, _step: AgentStep): Promise<AgentStepResult> {
        return { messages: [] };
      }
    }
    const model = new ScriptedModel();
    const { runner } = runnerWith(model, { classes: { researcher: Idle } });

    const result = await runner.step(startRun(runner, 'researcher'), context());

    expect(result.next).toEqual(
      fatal('sendMessage of researcher neither ran the step nor ended the run'),
    );
  });

  it('ends the run with a fatal error when its data outgrows its record', async () => {
    const model = new ScriptedModel([toolCall('task_completed', {}, 'x'.repeat(310_000))]);
    const { runner } = runnerWith(model);

    const result = await runner.step(startRun(runner, 'researcher'), context());

    expect(result.next).toMatchObject({
      type: 'done',
      output: {
        status: 'fatal_error',
        errorMessage: expect.stringMatching(/^the run's data outgrew 300000 bytes/),
      },
    });
  });
});
