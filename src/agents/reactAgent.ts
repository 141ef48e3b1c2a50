/**
 * The ReAct agents users extend in `custom/`: `McpOpenAgent` (general-purpose, ends with
 * `task_completed`) and `McpTaskAgent` (task-specific, fills the slots of its `exit_if` through
 * `set_slot_<slot>` tools). Each public method is a hook with a working default; the runner
 * (one step per job) calls them as the hooks table of docs/guides/react-agents.md says.
 */
import type { AgentInput, AgentSlotEvent, ReactSubAgent } from '../assistant/index.js';
import type { OutboundCallContext, OutboundCallResult } from '../extensions/index.js';
import type { ToolDefinition } from '../llm/index.js';
import { defaultClosingInstruction, defaultTaskCompletedTool } from './builtinTools.js';
import type {
  AgentStep,
  AgentStepResult,
  AgentToolResult,
  CustomToolDefinition,
} from './protocol.js';

/** What both kinds of ReAct agent share. */
export abstract class McpBaseAgent {
  abstract readonly kind: 'open' | 'task';

  constructor(readonly config: ReactSubAgent) {}

  /**
   * Reshapes the input before the run's first model call (filter slots, add context to
   * `metadata`). Runs once per run, that is once per user message the agent answers.
   */
  async processInput(input: AgentInput): Promise<AgentInput> {
    return input;
  }

  /** Tools written in TypeScript, offered next to the MCP servers' tools. */
  getCustomToolDefinitions(): readonly CustomToolDefinition[] {
    return [];
  }

  /**
   * Call-time metadata for one custom tool call (credentials looked up by `senderId`), merged
   * into the tool's `context.metadata`. Throwing, or answering anything but a plain object (or
   * `{ metadata }`), refuses that call with an error result; the executor does not run.
   */
  buildCustomToolCallMetadata(
    _context: OutboundCallContext,
  ):
    | OutboundCallResult
    | Readonly<Record<string, unknown>>
    | Promise<OutboundCallResult | Readonly<Record<string, unknown>>> {
    return {};
  }

  /**
   * Turns the results of a step's tool calls into slot events. Called after every step that ran
   * tools, with that step's results and all results of the run so far (keyed by tool call id);
   * the events are applied at once (later model calls see the slots) and returned with the run.
   */
  async processToolOutput(
    _current: Readonly<Record<string, AgentToolResult>>,
    _cumulative: Readonly<Record<string, AgentToolResult>>,
  ): Promise<readonly AgentSlotEvent[]> {
    return [];
  }

  /**
   * Wraps one step of the run: one job, that is one model call or the tool calls of one model
   * answer. Override to add messages (they are delivered with the step, exactly once) or to end
   * the run with an output of your own.
   */
  async sendMessage(_input: AgentInput, step: AgentStep): Promise<AgentStepResult> {
    return step.run();
  }
}

/** A general-purpose ReAct agent: works until it calls `task_completed`. */
export class McpOpenAgent extends McpBaseAgent {
  readonly kind = 'open' as const;

  /** The tool that ends the run; keep its name `task_completed`. */
  getTaskCompletedTool(): ToolDefinition {
    return defaultTaskCompletedTool();
  }

  /** The system message of the extra call made when `task_completed` came without text. */
  getSystemMessageForEmptyContentAtTaskCompletion(): { role: 'system'; content: string } {
    return defaultClosingInstruction();
  }
}

/** A task-specific ReAct agent: done, silently, once the conditions of its `exit_if` hold. */
export class McpTaskAgent extends McpBaseAgent {
  readonly kind = 'task' as const;
}

/** A class users may name in `configuration.module`. */
export type ReactAgentClass = new (config: ReactSubAgent) => McpBaseAgent;

/** Whether `value` is `McpOpenAgent`, `McpTaskAgent` or a class that extends one. */
export function isReactAgentClass(value: unknown): value is ReactAgentClass {
  return (
    typeof value === 'function' &&
    (value === McpOpenAgent ||
      value === McpTaskAgent ||
      value.prototype instanceof McpOpenAgent ||
      value.prototype instanceof McpTaskAgent)
  );
}
