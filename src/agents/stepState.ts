/** What the phases of one ReAct step share: the agent, the step's context and the run's data. */
import type { AgentOutput, Assistant, LlmConfig, ReactSubAgent } from '../assistant/index.js';
import type { ToolChatPort } from '../llm/index.js';
import type { McpAgentTools } from '../mcp/index.js';
import type { StepContext } from '../runtime/index.js';
import type { McpBaseAgent, ReactAgentClass } from './reactAgent.js';
import { type ReactRunData, runScope } from './runData.js';

/** The ports a `ReactRunner` runs its agents with. */
export interface ReactRunnerOptions {
  readonly assistant: Assistant;
  /** The tool-calling model of an agent's `configuration.llm`. */
  readonly models: (llm: LlmConfig | undefined) => ToolChatPort;
  /** The MCP tools of an agent (its `connections`, filtered). */
  readonly tools: (agent: ReactSubAgent) => McpAgentTools;
  /** Classes of agents with a `configuration.module`, by agent name. */
  readonly classes?: Readonly<Record<string, ReactAgentClass>>;
  readonly now?: () => number;
}

/** One step's own copy of the run's data, which its phases replace as they go. */
export class StepState {
  constructor(
    readonly options: ReactRunnerOptions,
    readonly config: ReactSubAgent,
    readonly agent: McpBaseAgent,
    public data: ReactRunData,
    readonly context: StepContext,
    readonly now: () => number,
  ) {}

  /** The slots as the run sees them: the input's, then those the run set. */
  get scope(): Record<string, unknown> {
    return runScope(this.data);
  }

  setSlot(name: string, value: unknown): void {
    this.data = {
      ...this.data,
      events: [...this.data.events.filter((e) => e.name !== name), { event: 'slot', name, value }],
    };
  }

  output(status: 'completed' | 'input_required', extra: { responseMessage?: string }): AgentOutput {
    return {
      id: this.data.input.id,
      status,
      ...extra,
      ...(this.data.events.length > 0 ? { events: this.data.events } : {}),
    };
  }
}
