/**
 * The model phases of a ReAct step: the call that answers or asks for tools, and the closing
 * call without tools that gets the closing line `task_completed` came without.
 */
import type { ReactSubAgent } from '../assistant/index.js';
import type { BotMessage } from '../dialogue/index.js';
import type { ToolChatMessage, ToolChatPort, ToolDefinition } from '../llm/index.js';
import type { AgentTool } from '../mcp/index.js';
import { SwitchboardError } from '../resilience/index.js';
import { exitSlots, SET_SLOT_PREFIX, setSlotTool, TASK_COMPLETED } from './builtinTools.js';
import { historyMessages } from './history.js';
import { agentTemplate, renderPrompt } from './prompts.js';
import type { AgentStepResult } from './protocol.js';
import { McpOpenAgent } from './reactAgent.js';
import { MAX_MODEL_CALLS, type ReactRunData, runScope } from './runData.js';
import type { StepState } from './stepState.js';
import { runTools } from './toolPhase.js';

/**
 * The model answered with neither text nor a tool call: worth another try.
 * Code `MODEL_ANSWER_EMPTY`, transient.
 */
class EmptyAnswerError extends SwitchboardError {
  override readonly name = 'EmptyAnswerError';
  override readonly code = 'MODEL_ANSWER_EMPTY';
  constructor(message: string) {
    super(message, { transient: true });
  }
}

/** Calls the model with the agent's tools; tool calls it asks for are left for the next step. */
export async function modelCall(step: StepState): Promise<AgentStepResult> {
  if (step.data.modelCalls >= MAX_MODEL_CALLS) {
    throw new Error(`${step.config.name} made ${MAX_MODEL_CALLS} model calls without finishing`);
  }
  const { definitions, readOnly } = await offeredTools(step);
  const answer = await modelOf(step).chat({
    messages: [...conversation(step), ...step.data.messages],
    tools: definitions,
    toolChoice: 'auto',
    agent: step.config.name,
    signal: step.context.signal,
    ...(step.context.deadline !== undefined ? { deadline: step.context.deadline } : {}),
    // Text that comes with tool calls is shown only as a filler: without fillers, no preview.
    ...(step.config.configuration.enable_filler_messages ? streaming(step) : {}),
  });
  if (step.context.signal.aborted) throw step.context.signal.reason;
  const content = answer.content.trim();
  step.data = { ...step.data, modelCalls: step.data.modelCalls + 1 };
  if (answer.toolCalls.length === 0) {
    if (!content)
      throw new EmptyAnswerError('the model answered with neither text nor a tool call');
    return {
      messages: [],
      output: step.output('input_required', { responseMessage: content }),
    };
  }
  const toolCalls = answer.toolCalls.map((call, i) => ({
    ...call,
    id: call.id || `call_${step.data.modelCalls}_${i}`,
  }));
  const completes = step.agent.kind === 'open' && toolCalls.some((c) => c.name === TASK_COMPLETED);
  step.data = {
    ...step.data,
    messages: [...step.data.messages, { role: 'assistant', content: answer.content, toolCalls }],
    pending: toolCalls,
    ...(completes ? { completedWith: content } : {}),
  };
  // With task_completed the text is the closing line, said when the run ends; else a filler.
  const filler = !completes && content && step.config.configuration.enable_filler_messages;
  const messages: BotMessage[] = filler
    ? [{ text: content, metadata: { filler: true, agent_id: step.config.name } }]
    : [];
  if (!toolCalls.every((call) => readOnly.has(call.name))) return { messages };
  // Every call only reads: they run in this job. A lost commit calls the model again and runs
  // whatever it then asks for, which changes nothing outside the run.
  const tools = await runTools(step);
  return { ...tools, messages: [...messages, ...tools.messages] };
}

/** Calls the model once more, without tools, for the run's closing line. */
export async function closingCall(step: StepState): Promise<AgentStepResult> {
  const instruction =
    step.agent instanceof McpOpenAgent
      ? step.agent.getSystemMessageForEmptyContentAtTaskCompletion()
      : undefined;
  const { definitions } = await offeredTools(step);
  const answer = await modelOf(step).chat({
    messages: [...conversation(step), ...step.data.messages, ...(instruction ? [instruction] : [])],
    tools: definitions,
    toolChoice: 'none',
    agent: step.config.name,
    signal: step.context.signal,
    ...(step.context.deadline !== undefined ? { deadline: step.context.deadline } : {}),
    ...streaming(step),
  });
  if (step.context.signal.aborted) throw step.context.signal.reason;
  step.data = { ...step.data, modelCalls: step.data.modelCalls + 1, closing: false };
  const content = answer.content.trim();
  return {
    messages: [],
    output: step.output('completed', content ? { responseMessage: content } : {}),
  };
}

/** The tools the model is offered, and the names of those that only read. */
interface OfferedTools {
  readonly definitions: ToolDefinition[];
  readonly readOnly: ReadonlySet<string>;
}

async function offeredTools(step: StepState): Promise<OfferedTools> {
  const mcp = await step.options.tools(step.config).list({
    signal: step.context.signal,
    ...(step.context.deadline !== undefined ? { deadline: step.context.deadline } : {}),
    maxRetries: step.config.configuration.max_retries,
  });
  const offered = mcpDefinitions(mcp);
  const readOnly = new Set<string>(offered.readOnly);
  const definitions = [...offered.definitions];
  for (const custom of step.agent.getCustomToolDefinitions()) {
    definitions.push({ type: custom.type, function: custom.function });
    // A custom tool shadows an MCP tool of the same name (see `runToolCall`).
    if (custom.readOnly === true) readOnly.add(custom.function.name);
    else readOnly.delete(custom.function.name);
  }
  // The built-in tools change only the run's own data; they come first when a call is run.
  if (step.agent instanceof McpOpenAgent) definitions.push(step.agent.getTaskCompletedTool());
  if (step.agent.kind === 'open') readOnly.add(TASK_COMPLETED);
  if (step.agent.kind === 'task') {
    for (const slot of exitSlots(step.data.exitIf ?? [])) {
      definitions.push(setSlotTool(slot, step.options.assistant.slots[slot]));
      readOnly.add(`${SET_SLOT_PREFIX}${slot}`);
    }
  }
  return { definitions, readOnly };
}

/** The model's view of each MCP tool list, kept while the list is (the list is cached). */
const mcpViews = new WeakMap<
  readonly AgentTool[],
  { definitions: ToolDefinition[]; readOnly: string[] }
>();

function mcpDefinitions(tools: readonly AgentTool[]) {
  let view = mcpViews.get(tools);
  if (!view) {
    view = {
      definitions: tools.map((tool) => ({
        type: 'function',
        function: {
          name: tool.name,
          ...(tool.description ? { description: tool.description } : {}),
          parameters: tool.inputSchema,
        },
      })),
      readOnly: tools.filter((tool) => tool.readOnly).map((tool) => tool.name),
    };
    mcpViews.set(tools, view);
  }
  return view;
}

/**
 * The system prompt of a run's next model call: the agent's template rendered with the run's
 * data (the slots it sees, whether it resumed or restarted) and the time `now`. The inspector
 * renders a stored run's prompt with it again, so that no run record has to keep one.
 */
export function systemPrompt(
  config: ReactSubAgent,
  kind: 'open' | 'task',
  data: ReactRunData,
  now: number,
): string {
  const { configuration } = config;
  const lastRequest = data.input.metadata.last_message;
  return renderPrompt(agentTemplate(config, kind), {
    description: config.description,
    ...(kind === 'task' ? { slotNames: exitSlots(data.exitIf ?? []) } : {}),
    slots: runScope(data),
    ...(configuration.include_date_time ? { now } : {}),
    timezone: configuration.timezone,
    enableFillerMessages: configuration.enable_filler_messages,
    resumedAfterInterruption: data.resumed,
    ...(data.resumed && typeof lastRequest === 'string' ? { resumedLastRequest: lastRequest } : {}),
    restarted: data.restarted,
  });
}

/** The system prompt, then the recent conversation. */
function conversation(step: StepState): ToolChatMessage[] {
  const system = systemPrompt(step.config, step.agent.kind, step.data, step.now());
  return [
    { role: 'system', content: system },
    ...historyMessages(step.data.input, step.config.name, {
      restarted: step.data.restarted,
      resumed: step.data.resumed,
    }),
  ];
}

/** Streams the model's text to the channel when it shows previews; else one answer at once. */
function streaming(step: StepState): { onTextDelta?: (delta: string) => void } {
  const { preview } = step.context;
  return preview ? { onTextDelta: preview } : {};
}

function modelOf(step: StepState): ToolChatPort {
  return step.options.models(step.config.configuration.llm);
}
