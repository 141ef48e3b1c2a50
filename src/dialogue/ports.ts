import type { AgentInput, AgentOutput, SubAgent } from '../assistant/index.js';
import type { DialogueEvent } from './events.js';
import type { Frame } from './frames.js';
import type { BotMessage } from './responses/botMessage.js';

/** One chat message sent to a language model. */
export interface ChatMessage {
  readonly role: 'system' | 'user' | 'assistant';
  readonly content: string;
}

/** The language model, as the command generator uses it: text in, text out, no tools. */
export interface LlmPort {
  complete(request: {
    readonly messages: readonly ChatMessage[];
    /** The user's message the answer is about, when there is one (scripted stand-ins read it). */
    readonly userMessage?: string;
    readonly signal?: AbortSignal;
    /** The call must be over by then (ms since the epoch): the job's budget ends soon after. */
    readonly deadline?: number;
  }): Promise<{ readonly content: string }>;
  /**
   * True for a scripted stand-in that answers by rules, such as the demo model used when no
   * model is configured: nothing that needs real language (rephrasing) is asked of it.
   */
  readonly scripted?: boolean;
}

/** A response sent as written because the model failed to rephrase it (or to summarize for it). */
export interface RephraseFailure {
  /** The response's name, such as `utter_greet`. */
  readonly response: string;
  /** The call that failed: the history's summary, or the rephrasing itself. */
  readonly stage: 'summary' | 'rephrase';
  readonly error: unknown;
}

/** Rewrites domain responses in the conversation's context (endpoints.yml `nlg`). */
export interface RephrasePort {
  /** The model the `nlg` block names. */
  readonly llm: LlmPort;
  /** Hears once of each response left as written because its model call failed or timed out. */
  readonly failed: (failure: RephraseFailure) => void;
}

/** A request to run a sub agent for one user turn (or to resume or restart it). */
export interface AgentInvocation {
  readonly agent: SubAgent;
  /** The agent frame this invocation works for. */
  readonly frameId: string;
  readonly input: AgentInput;
  /** Present for task-specific ReAct agents: the conditions that end the run. */
  readonly exitIf?: readonly string[];
  readonly resumed: boolean;
  readonly restarted: boolean;
  readonly signal?: AbortSignal;
  /** When the call must be over (ms since the epoch). */
  readonly deadline?: number;
}

/**
 * The agent's run goes on outside this turn (in its own jobs); its result arrives later through
 * `DialogueEngine.handleAgentUpdate`.
 */
export interface AgentPending {
  readonly status: 'pending';
  readonly runId: string;
}

/** Runs sub agents (ReAct or A2A), inline or as a durable run. */
export interface AgentPort {
  invoke(invocation: AgentInvocation): Promise<AgentOutput | AgentPending>;
}

/** A tool call made directly from a flow's `call` step. */
export interface McpToolCall {
  readonly serverName: string;
  readonly toolName: string;
  readonly arguments: Readonly<Record<string, unknown>>;
  readonly senderId: string;
  readonly flowId: string;
  readonly stepId: string;
  readonly slots: Readonly<Record<string, unknown>>;
  /**
   * The same for this call when its job runs again (after a crash, a lost race or a retry), and
   * different for every other call: the tool port derives the call's idempotency key from it.
   */
  readonly callKey: string;
  readonly signal?: AbortSignal;
  /** When the call must be over (ms since the epoch). */
  readonly deadline?: number;
}

/** What an MCP tool answered (the parts flows map from). */
export interface McpToolResult {
  readonly isError: boolean;
  readonly structuredContent?: unknown;
  readonly content?: readonly unknown[];
}

export interface McpToolPort {
  callTool(call: McpToolCall): Promise<McpToolResult>;
}

/** What a custom action sees. */
export interface ActionContext {
  readonly senderId: string;
  readonly slots: Readonly<Record<string, unknown>>;
  readonly latestMessage: string | undefined;
  readonly flowId: string | undefined;
  readonly stepId: string | undefined;
  /** Aborted when the turn must stop; long actions should give up. */
  readonly signal?: AbortSignal;
  /** When the action must be over (ms since the epoch). */
  readonly deadline?: number;
  /** The conversation's recent events up to this action, oldest first (a bounded window). */
  readonly events?: readonly DialogueEvent[];
  /** The dialogue stack, bottom first. */
  readonly stack?: readonly Frame[];
  /** What the channel sent along with the latest user message, when this turn answers one. */
  readonly latestMetadata?: Readonly<Record<string, unknown>>;
  /** The channel the conversation is on (`rest`, …). */
  readonly channel?: string;
  /**
   * The same for this call when its job runs again (after a crash, a lost race or a retry of the
   * turn) and different for every other call: an idempotency key for the action's effects.
   */
  readonly callKey?: string;
}

/**
 * A message an action asks for: `message` as it is, or the domain response `name` rendered
 * with the slots as the action found them and `variables` (which win over slots of the same
 * name). With a name, `message` changes the rendered response: its buttons are added, its other
 * fields replace the response's.
 */
export interface ActionResponse {
  readonly name?: string;
  readonly variables?: Readonly<Record<string, unknown>>;
  readonly message?: BotMessage;
}

/** What a custom action returns: slot changes and messages for the user. */
export interface ActionResult {
  readonly slots?: Readonly<Record<string, unknown>>;
  readonly messages?: readonly BotMessage[];
  /** Messages said after `messages`, in order; named responses are rendered here. */
  readonly responses?: readonly ActionResponse[];
  /** Every slot goes back to its initial value before `slots` apply. */
  readonly resetSlots?: boolean;
  /**
   * The conversation starts over after the messages: every flow ends and every slot is reset
   * before `slots` apply.
   */
  readonly restart?: boolean;
  /** An action to run right after this one (a response, a built-in or a custom action). */
  readonly followup?: string;
  /**
   * The action declined to run, for this reason: nothing else of the result applies and the
   * flow ends with the internal-error pattern.
   */
  readonly rejected?: string;
}

/**
 * The project's custom actions. `run` rejects with an error carrying `transient: true` (and
 * `retryAfterMs` when known) when a later try may succeed.
 */
export interface ActionPort {
  has(name: string): boolean;
  run(name: string, context: ActionContext): Promise<ActionResult>;
}

/** Everything outside the dialogue core that a turn may need. */
export interface DialoguePorts {
  readonly llm: LlmPort;
  readonly agents: AgentPort;
  readonly mcp: McpToolPort;
  readonly actions: ActionPort;
  /** Milliseconds since the epoch. */
  readonly now: () => number;
  /** Chooses among response variations. */
  readonly random: () => number;
  /** Rephrases flagged responses once a turn settles; without it, responses go as written. */
  readonly rephrase?: RephrasePort;
  /**
   * Hears what a turn passed over without failing, as Rasa logs it: a rendered action name that
   * nothing defines, a rendered condition that does not parse.
   */
  readonly warn?: (message: string, fields: Readonly<Record<string, unknown>>) => void;
}

/** Ports for a project without custom actions. */
export const NO_ACTIONS: ActionPort = {
  has: () => false,
  run: async (name) => {
    throw new Error(`custom action ${name} is not defined`);
  },
};
