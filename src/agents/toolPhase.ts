/**
 * The tool phase of a ReAct step: runs the tool calls the model's committed answer asked for,
 * records their results, applies what `processToolOutput` returned and decides whether the run ends.
 */
import { AgentSlotEvent, BUILTIN_SLOTS, conditionHolds } from '../assistant/index.js';
import { coerceSlotValue } from '../dialogue/index.js';
import type { ToolChatMessage } from '../llm/index.js';
import type { AgentStepResult, AgentToolResult } from './protocol.js';
import { McpBaseAgent } from './reactAgent.js';
import type { StepState } from './stepState.js';
import { runToolCall } from './toolCall.js';

/** Runs the tool calls the model asked for, then ends the run if its exit conditions hold. */
export async function runTools(step: StepState): Promise<AgentStepResult> {
  const calls = step.data.pending ?? [];
  const iteration = step.data.modelCalls;
  const results = await Promise.all(calls.map((call) => runToolCall(step, call, iteration)));
  const current: Record<string, AgentToolResult> = {};
  const messages: ToolChatMessage[] = [...step.data.messages];
  calls.forEach((call, i) => {
    const result = results[i] as AgentToolResult;
    current[call.id] = result;
    messages.push({ role: 'tool', toolCallId: call.id, content: resultText(result) });
  });
  step.data = {
    ...step.data,
    messages,
    results: [
      ...step.data.results,
      ...calls.map((call, i) => ({
        callId: call.id,
        toolName: call.name,
        isError: results[i]?.isError === true,
      })),
    ],
  };
  delete step.data.pending;
  // The default hook sets nothing: the run's results are gathered only for a hook of the user's.
  if (step.agent.processToolOutput !== McpBaseAgent.prototype.processToolOutput) {
    applyHookEvents(step, await step.agent.processToolOutput(current, cumulative(step, current)));
  }

  if (step.agent.kind === 'task' && exitConditionsHold(step)) {
    return { messages: [], output: step.output('completed', {}) };
  }
  if (step.data.completedWith !== undefined) {
    if (step.data.completedWith) {
      return {
        messages: [],
        output: step.output('completed', { responseMessage: step.data.completedWith }),
      };
    }
    step.data = { ...step.data, closing: true };
  }
  return { messages: [] };
}

/** Applies the slot events `processToolOutput` returned; one that is not valid ends the run. */
function applyHookEvents(step: StepState, events: unknown): void {
  const hook = `processToolOutput of ${step.config.name}`;
  if (!Array.isArray(events))
    throw new Error(`${hook} returned ${typeof events}, not a list of slot events`);
  for (const raw of events) {
    const event = AgentSlotEvent.safeParse(raw);
    if (!event.success) {
      throw new Error(
        `${hook} returned an event that is not { event: 'slot', name, value }: ${JSON.stringify(raw)?.slice(0, 200)}`,
      );
    }
    const { name, value } = event.data;
    const definition = step.options.assistant.slots[name];
    if (!definition || name in BUILTIN_SLOTS)
      throw new Error(`${hook} set ${name}, which is not a slot of the project`);
    const coerced = coerceSlotValue(value, definition);
    if (!coerced.ok)
      throw new Error(`${hook} set ${name} to a value that does not fit it: ${coerced.reason}`);
    step.setSlot(name, coerced.value);
  }
}

function exitConditionsHold(step: StepState): boolean {
  const exitIf = step.data.exitIf ?? [];
  if (exitIf.length === 0) return false;
  const scope = { slots: step.scope };
  return exitIf.every((condition) => conditionHolds(condition, scope));
}

function cumulative(
  step: StepState,
  current: Record<string, AgentToolResult>,
): Record<string, AgentToolResult> {
  const texts = new Map<string, string>();
  for (const message of step.data.messages)
    if (message.role === 'tool') texts.set(message.toolCallId, message.content);
  const all: Record<string, AgentToolResult> = {};
  for (const record of step.data.results) {
    const text = texts.get(record.callId) ?? '';
    all[record.callId] =
      current[record.callId] ??
      (record.isError
        ? { toolName: record.toolName, isError: true, errorMessage: text }
        : { toolName: record.toolName, result: text });
  }
  return all;
}

/** The text the model reads back for a tool result. */
function resultText(result: AgentToolResult): string {
  if (result.isError) return `Error: ${result.errorMessage ?? result.result ?? 'the tool failed'}`;
  return result.result ?? '';
}
