import * as z from 'zod';

/**
 * The tool-calling side of a chat model, as the ReAct agents use it: messages with tool calls and
 * tool results, tool definitions, `tool_choice`, streamed text deltas and token usage. The
 * command generator's `LlmPort` stays text only.
 */

/** A call the model asked for; `arguments` is the model's JSON text, unparsed. */
export const ToolCall = z.object({
  id: z.string(),
  name: z.string(),
  arguments: z.string(),
});
export type ToolCall = z.infer<typeof ToolCall>;

/** One message of a tool-calling conversation (serializable: agent runs store them). */
export const ToolChatMessage = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content: z.string() }),
  z.object({ role: z.literal('user'), content: z.string() }),
  z.object({
    role: z.literal('assistant'),
    content: z.string(),
    toolCalls: z.array(ToolCall).optional(),
  }),
  z.object({ role: z.literal('tool'), toolCallId: z.string(), content: z.string() }),
]);
export type ToolChatMessage = z.infer<typeof ToolChatMessage>;

/** A function the model may call, in OpenAI's function-calling format. */
export interface ToolDefinition {
  readonly type: 'function';
  readonly function: {
    readonly name: string;
    readonly description?: string;
    readonly parameters?: Readonly<Record<string, unknown>>;
    readonly strict?: boolean;
  };
}

/** Whether the model may call tools (`auto`), must not (`none`) or must (`required`). */
export type ToolChoice = 'auto' | 'none' | 'required';

export interface ToolChatRequest {
  readonly messages: readonly ToolChatMessage[];
  readonly tools?: readonly ToolDefinition[];
  readonly toolChoice?: ToolChoice;
  /** The name of the sub agent asking (scripted stand-ins read it; models are not told). */
  readonly agent?: string;
  readonly signal?: AbortSignal;
  /** When the call must be over (ms since the epoch). */
  readonly deadline?: number;
  /** Given: the answer is streamed and each text delta passed here as it arrives. */
  readonly onTextDelta?: (delta: string) => void;
}

export interface TokenUsage {
  readonly promptTokens: number;
  readonly completionTokens: number;
}

export interface ToolChatResponse {
  /** The answer's text ('' when it has none). */
  readonly content: string;
  readonly toolCalls: readonly ToolCall[];
  readonly usage?: TokenUsage;
}

/** A chat model that can call tools. */
export interface ToolChatPort {
  chat(request: ToolChatRequest): Promise<ToolChatResponse>;
}
