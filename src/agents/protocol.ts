import type { AgentOutput } from '../assistant/index.js';
import type { BotMessage } from '../dialogue/index.js';
import type { ToolDefinition } from '../llm/index.js';

/** What a tool call of a ReAct agent answered (an MCP tool, a custom tool or a built-in one). */
export interface AgentToolResult {
  readonly toolName: string;
  readonly result?: string;
  readonly isError?: boolean;
  readonly errorMessage?: string;
}

/** What a custom tool's executor gets besides the model's arguments. */
export interface AgentToolContext {
  /**
   * A copy of the invocation's `AgentInput.metadata`, with what `buildCustomToolCallMetadata`
   * returned merged in: backend-only data the model never sees.
   */
  readonly metadata: Readonly<Record<string, unknown>>;
  /** Aborts when the job stops; the call is also cut off at `tool_timeout` and the deadline. */
  readonly signal: AbortSignal;
  /** The same when the step runs again (a lost commit, a retry): lets a backend drop a repeat. */
  readonly idempotencyKey: string;
}

/** A tool written in TypeScript: an OpenAI function definition and the function that runs it. */
export interface CustomToolDefinition extends ToolDefinition {
  /**
   * Set when the tool only reads. A model answer whose calls all only read has them run in the
   * same job as the model call (one job per iteration, not two); a lost commit runs them again.
   */
  readonly readOnly?: boolean;
  readonly toolExecutor: (
    args: Readonly<Record<string, unknown>>,
    context: AgentToolContext,
  ) => Promise<AgentToolResult> | AgentToolResult;
}

/** What one step of a run does. */
export type AgentStepPhase =
  /**
   * Calls the model, with the tools the agent has. When every tool call of its answer only
   * reads, the step runs them too.
   */
  | 'model'
  /** Runs the tool calls the model's previous answer asked for. */
  | 'tools'
  /** Calls the model once more, without tools, for the closing line `task_completed` lacked. */
  | 'closing';

/** What one step produced: messages for the user now, and the run's output when it ends. */
export interface AgentStepResult {
  readonly messages: readonly BotMessage[];
  readonly output?: AgentOutput;
}

/** One step of a run (one job), as `sendMessage` sees it. */
export interface AgentStep {
  /** The run's model calls before this step (0 at the first step). */
  readonly modelCalls: number;
  readonly phase: AgentStepPhase;
  /** Whether this is the first step of the run. */
  readonly first: boolean;
  /** Runs the step. */
  run(): Promise<AgentStepResult>;
}
