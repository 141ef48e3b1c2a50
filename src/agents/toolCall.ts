/**
 * One tool call of a ReAct step, dispatched by its name: `task_completed`, a `set_slot_<slot>`
 * tool, a custom tool (raced against its `tool_timeout` and the step's deadline) or an MCP tool.
 */
import * as z from 'zod';
import { coerceSlotValue } from '../dialogue/index.js';
import type { ToolCall } from '../llm/index.js';
import { runPreCallHook } from '../mcp/preCallHooks.js';
import { MAX_TOOL_RESULT_CHARS } from '../mcp/toolResultText.js';
import { earliest, within } from '../resilience/index.js';
import {
  exitSlots,
  SET_SLOT_PREFIX,
  TASK_COMPLETED,
  TASK_COMPLETED_RESULT,
} from './builtinTools.js';
import type { AgentToolResult, CustomToolDefinition } from './protocol.js';
import type { StepState } from './stepState.js';

/** Runs one tool call: a built-in, a custom or an MCP tool; its failure becomes an error result. */
export async function runToolCall(
  step: StepState,
  call: ToolCall,
  iteration: number,
): Promise<AgentToolResult> {
  // Stable across retries of this step: the run, the model call and the call's id.
  const callKey = `${step.context.runId}#${iteration}#${call.id}`;
  const error = (message: string): AgentToolResult => ({
    toolName: call.name,
    isError: true,
    errorMessage: message,
  });
  let args: Record<string, unknown>;
  try {
    const parsed: unknown = call.arguments.trim() ? JSON.parse(call.arguments) : {};
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      return error(`the arguments of ${call.name} must be a JSON object`);
    }
    args = parsed as Record<string, unknown>;
  } catch (cause) {
    return error(
      `the arguments of ${call.name} are not valid JSON (${cause instanceof Error ? cause.message : String(cause)})`,
    );
  }
  if (call.name === TASK_COMPLETED && step.agent.kind === 'open') {
    return { toolName: call.name, result: TASK_COMPLETED_RESULT };
  }
  if (call.name.startsWith(SET_SLOT_PREFIX) && step.agent.kind === 'task') {
    const slot = call.name.slice(SET_SLOT_PREFIX.length);
    if (exitSlots(step.data.exitIf ?? []).includes(slot))
      return setSlotCall(step, call, slot, args);
  }
  const custom = step.agent.getCustomToolDefinitions().find((t) => t.function.name === call.name);
  if (custom) return customToolCall(step, custom, call, args, callKey);
  const outcome = await step.options.tools(step.config).call(
    {
      toolName: call.name,
      arguments: args,
      senderId: senderIdOf(step),
      slots: step.scope,
      callKey,
    },
    {
      signal: step.context.signal,
      ...(step.context.deadline !== undefined ? { deadline: step.context.deadline } : {}),
      ...(step.config.configuration.tool_timeout !== undefined
        ? { timeoutMs: step.config.configuration.tool_timeout * 1000 }
        : {}),
      maxRetries: step.config.configuration.max_retries,
    },
  );
  return outcome.isError
    ? { toolName: call.name, isError: true, errorMessage: outcome.text }
    : { toolName: call.name, result: outcome.text };
}

function setSlotCall(
  step: StepState,
  call: ToolCall,
  slot: string,
  args: Record<string, unknown>,
): AgentToolResult {
  if (!('slot_value' in args)) {
    return {
      toolName: call.name,
      isError: true,
      errorMessage: `${call.name} needs a slot_value`,
    };
  }
  const definition = step.options.assistant.slots[slot];
  const coerced = definition
    ? coerceSlotValue(args.slot_value, definition)
    : { ok: true as const, value: args.slot_value };
  if (!coerced.ok) {
    return {
      toolName: call.name,
      isError: true,
      errorMessage: `${JSON.stringify(args.slot_value)} does not fit the slot ${slot}: ${coerced.reason}`,
    };
  }
  step.setSlot(slot, coerced.value);
  return {
    toolName: call.name,
    result: `The slot ${slot} is now ${JSON.stringify(coerced.value)}.`,
  };
}

async function customToolCall(
  step: StepState,
  tool: CustomToolDefinition,
  call: ToolCall,
  args: Record<string, unknown>,
  callKey: string,
): Promise<AgentToolResult> {
  let extra: Readonly<Record<string, unknown>>;
  try {
    extra = await runPreCallHook(
      `buildCustomToolCallMetadata of ${step.config.name}`,
      (ctx) => step.agent.buildCustomToolCallMetadata(ctx),
      { senderId: senderIdOf(step), toolName: call.name, agentId: step.config.name },
    );
  } catch (cause) {
    return {
      toolName: call.name,
      isError: true,
      errorMessage: cause instanceof Error ? cause.message : String(cause),
    };
  }
  const metadata = { ...structuredClone(step.data.input.metadata), ...extra };
  const { tool_timeout: toolTimeout } = step.config.configuration;
  const toolDeadline = toolTimeout === undefined ? undefined : step.now() + toolTimeout * 1000;
  const deadline = earliest(step.context.deadline, toolDeadline);
  try {
    const answer = await within(
      Promise.resolve(
        tool.toolExecutor(args, {
          metadata,
          signal: step.context.signal,
          idempotencyKey: callKey,
        }),
      ),
      {
        signal: step.context.signal,
        deadline,
        now: step.now,
        timedOut: () =>
          new Error(
            toolDeadline !== undefined && deadline === toolDeadline
              ? `the tool ${call.name} took longer than its tool_timeout of ${toolTimeout} s`
              : `the tool ${call.name} did not answer before the step's deadline`,
          ),
      },
    );
    const result = toolResultOf(call.name, answer);
    return result.result === undefined ? result : { ...result, result: cutText(result.result) };
  } catch (cause) {
    if (step.context.signal.aborted) throw step.context.signal.reason;
    return {
      toolName: call.name,
      isError: true,
      errorMessage: `the tool ${call.name} failed: ${cause instanceof Error ? cause.message : String(cause)}`,
    };
  }
}

function senderIdOf(step: StepState): string {
  const sender = step.data.input.metadata.sender_id;
  return typeof sender === 'string' ? sender : '';
}

/** A custom tool's answer as a result; anything but an `AgentToolResult` is an error result. */
function toolResultOf(toolName: string, answer: unknown): AgentToolResult {
  const parsed = z
    .object({
      toolName: z.string().optional(),
      result: z.string().nullish(),
      isError: z.boolean().optional(),
      errorMessage: z.string().nullish(),
    })
    .safeParse(answer);
  if (!parsed.success) {
    return {
      toolName,
      isError: true,
      errorMessage: `the tool ${toolName} returned something other than { result, isError, errorMessage }`,
    };
  }
  const { result, isError, errorMessage } = parsed.data;
  return {
    toolName,
    ...(result != null ? { result } : {}),
    ...(isError ? { isError } : {}),
    ...(errorMessage != null ? { errorMessage } : {}),
  };
}

/** A custom tool's result as long as an MCP tool's may be. */
function cutText(text: string): string {
  return text.length > MAX_TOOL_RESULT_CHARS
    ? `${text.slice(0, MAX_TOOL_RESULT_CHARS)}… [cut at ${MAX_TOOL_RESULT_CHARS} characters]`
    : text;
}
