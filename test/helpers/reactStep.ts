/**
 * One step of a ReAct run built by hand for unit tests of its phases: the agent, its MCP tools
 * (a port that records its calls and answers as told) and the run's data.
 */

import type { McpBaseAgent } from '../../src/agents/reactAgent.js';
import type { ReactRunData } from '../../src/agents/runData.js';
import { StepState } from '../../src/agents/stepState.js';
import type {
  Assistant,
  ReactConfiguration,
  ReactSubAgent,
  SlotDefinition,
} from '../../src/assistant/index.js';
import type { ToolCall } from '../../src/llm/index.js';
import type {
  AgentToolCall,
  AgentToolOutcome,
  McpAgentTools,
  McpCallOptions,
} from '../../src/mcp/index.js';

/** The MCP tools of an agent as a port: records each call, answers with `answer`. */
export class RecordingTools {
  readonly calls: { call: AgentToolCall; options: McpCallOptions }[] = [];

  constructor(
    private readonly answer: (call: AgentToolCall) => AgentToolOutcome = (call) => ({
      text: `${call.toolName} answered`,
      isError: false,
    }),
  ) {}

  async call(call: AgentToolCall, options: McpCallOptions = {}): Promise<AgentToolOutcome> {
    this.calls.push({ call, options });
    return this.answer(call);
  }

  /** The port as `ReactRunnerOptions.tools` returns it. */
  asAgentTools(): McpAgentTools {
    return this as unknown as McpAgentTools;
  }
}

export interface StepSpec {
  readonly agent: (config: ReactSubAgent) => McpBaseAgent;
  readonly configuration?: Partial<ReactConfiguration>;
  readonly slots?: Readonly<Record<string, SlotDefinition>>;
  readonly exitIf?: readonly string[];
  readonly pending?: readonly ToolCall[];
  readonly metadata?: Readonly<Record<string, unknown>>;
  readonly data?: Partial<ReactRunData>;
  readonly tools?: RecordingTools;
  readonly signal?: AbortSignal;
  readonly deadline?: number;
  readonly modelCalls?: number;
}

/** A step of the agent `booker` in the run `run-1`, on the clock `Date.now` (fake in tests). */
export function reactStep(spec: StepSpec): StepState {
  const config: ReactSubAgent = {
    name: 'booker',
    description: 'Books appointments.',
    dir: 'sub_agents/booker',
    protocol: 'RASA',
    configuration: {
      max_retries: 3,
      include_date_time: false,
      timezone: 'UTC',
      enable_filler_messages: false,
      ...spec.configuration,
    },
    mcpServers: [],
  };
  const assistant = { slots: spec.slots ?? {} } as unknown as Assistant;
  const tools = spec.tools ?? new RecordingTools();
  const data: ReactRunData = {
    agentId: 'booker',
    input: {
      id: 'input-1',
      userMessage: 'book me in',
      slots: [],
      conversationHistory: '',
      events: [],
      metadata: { ...spec.metadata },
    },
    inputReady: true,
    ...(spec.exitIf ? { exitIf: [...spec.exitIf] } : {}),
    resumed: false,
    restarted: false,
    modelCalls: spec.modelCalls ?? 1,
    messages: [],
    ...(spec.pending ? { pending: [...spec.pending] } : {}),
    events: [],
    results: [],
    ...spec.data,
  };
  return new StepState(
    {
      assistant,
      models: () => {
        throw new Error('a tool step calls no model');
      },
      tools: () => tools.asAgentTools(),
    },
    config,
    spec.agent(config),
    data,
    {
      conversationId: 'conversation-1',
      runId: 'run-1',
      signal: spec.signal ?? new AbortController().signal,
      ...(spec.deadline !== undefined ? { deadline: spec.deadline } : {}),
    },
    () => Date.now(),
  );
}
