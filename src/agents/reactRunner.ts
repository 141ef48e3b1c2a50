/**
 * The ReAct loop as durable steps: each step is one job. A `model` step makes one LLM call and
 * stores its answer; when the answer asks for tools, the run's next step (`tools`) runs them.
 * The model's answer is committed before any tool runs, so its filler text reaches the user
 * exactly once and a crash or retry of the tools step repeats the same calls with the same
 * idempotency keys, never a different set from a new LLM call.
 */
import { z } from 'zod';
import {
  type AgentOutput,
  AgentSlotEvent,
  type Assistant,
  BUILTIN_SLOTS,
  conditionHolds,
  type LlmConfig,
  type ReactSubAgent,
} from '../assistant/index.js';
import { coerceSlotValue } from '../dialogue/index.js';
import type { ToolCall, ToolChatMessage, ToolChatPort, ToolDefinition } from '../llm/index.js';
import { MAX_TOOL_RESULT_CHARS, type McpAgentTools, runPreCallHook } from '../mcp/index.js';
import { isTransient, retryAfterOf, SwitchboardError, within } from '../resilience/index.js';
import type { AgentRunner, StepContext, StepResult } from '../runtime/index.js';
import {
  exitSlots,
  SET_SLOT_PREFIX,
  setSlotTool,
  TASK_COMPLETED,
  TASK_COMPLETED_RESULT,
} from './builtinTools.js';
import { fitRecord } from './fitRecord.js';
import { historyMessages } from './history.js';
import { agentTemplate, renderPrompt } from './prompts.js';
import type {
  AgentStep,
  AgentStepPhase,
  AgentStepResult,
  AgentToolResult,
  CustomToolDefinition,
} from './protocol.js';
import {
  type McpBaseAgent,
  McpOpenAgent,
  McpTaskAgent,
  type ReactAgentClass,
} from './reactAgent.js';
import { MAX_MODEL_CALLS, ReactRunData } from './runData.js';

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

/** Runs ReAct agents (protocol `RASA`) one step per job. */
export class ReactRunner implements AgentRunner<ReactRunData> {
  readonly dataSchema = ReactRunData;
  private readonly agents = new Map<string, McpBaseAgent>();
  private readonly now: () => number;

  constructor(private readonly options: ReactRunnerOptions) {
    this.now = options.now ?? Date.now;
  }

  start(invocation: Parameters<AgentRunner['start']>[0]): ReactRunData {
    // The invocation's time: a retried step keeps the data it started with, so the run's
    // clock must be set here, not by its first step.
    const startedAt = invocation.input.timestamp
      ? Date.parse(invocation.input.timestamp)
      : Number.NaN;
    return {
      ...(Number.isFinite(startedAt) ? { startedAt } : {}),
      agentId: invocation.agent.name,
      input: invocation.input,
      inputReady: false,
      ...(invocation.exitIf ? { exitIf: [...invocation.exitIf] } : {}),
      resumed: invocation.resumed,
      restarted: invocation.restarted,
      modelCalls: 0,
      messages: [],
      events: [],
      results: [],
    };
  }

  async step(data: ReactRunData, context: StepContext): Promise<StepResult<ReactRunData>> {
    const config = this.options.assistant.agents[data.agentId];
    if (config?.protocol !== 'RASA') {
      return fatal(data, `no ReAct agent named ${data.agentId} is configured`);
    }
    const agent = this.agentFor(config, data.exitIf !== undefined);
    if (agent.kind === 'task' && !data.exitIf?.length) {
      return fatal(data, `${config.name} is a task-specific agent, but its step has no exit_if`);
    }
    const run: ReactRunData = { ...data, startedAt: data.startedAt ?? this.now() };
    const timeoutMs = config.configuration.timeout && config.configuration.timeout * 1000;
    if (timeoutMs !== undefined && this.now() - (run.startedAt ?? 0) >= timeoutMs) {
      return fatal(
        run,
        `${config.name} did not finish within its timeout of ${config.configuration.timeout} s`,
      );
    }
    if (!run.inputReady) {
      run.input = await agent.processInput(structuredClone(run.input));
      run.inputReady = true;
    }
    const deadline = earliest(
      context.deadline,
      timeoutMs === undefined ? undefined : (run.startedAt ?? 0) + timeoutMs,
    );
    const iteration = new Iteration(
      this.options,
      config,
      agent,
      run,
      { ...context, ...(deadline !== undefined ? { deadline } : {}) },
      this.now,
    );
    let result: AgentStepResult;
    try {
      result = await agent.sendMessage(run.input, iteration);
    } catch (error) {
      if (context.signal.aborted) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      if (!isTransient(error)) return fatal(run, reason);
      const retryAfterMs = retryAfterOf(error);
      return { data, next: { type: 'retry', reason, ...(retryAfterMs ? { retryAfterMs } : {}) } };
    }
    if (!iteration.ran && !result.output) {
      return fatal(run, `sendMessage of ${config.name} neither ran the step nor ended the run`);
    }
    let next: ReactRunData;
    try {
      next = fitRecord(iteration.data);
    } catch (error) {
      return fatal(run, error instanceof Error ? error.message : String(error));
    }
    const messages = [...result.messages];
    if (result.output)
      return { data: next, messages, next: { type: 'done', output: result.output } };
    return { data: next, messages, next: { type: 'continue' } };
  }

  private agentFor(config: ReactSubAgent, hasExitIf: boolean): McpBaseAgent {
    const key = `${config.name}:${hasExitIf ? 'task' : 'open'}`;
    let agent = this.agents.get(key);
    if (!agent) {
      const Custom = this.options.classes?.[config.name];
      agent = Custom
        ? new Custom(config)
        : hasExitIf
          ? new McpTaskAgent(config)
          : new McpOpenAgent(config);
      this.agents.set(key, agent);
    }
    return agent;
  }
}

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

/** One step of a run: what `sendMessage` runs. Works on its own copy of the run's data. */
class Iteration implements AgentStep {
  readonly phase: AgentStepPhase;
  readonly modelCalls: number;
  readonly first: boolean;
  data: ReactRunData;
  /** Whether `run` was called: a `sendMessage` that neither runs the step nor ends the run stalls it. */
  ran = false;

  constructor(
    private readonly options: ReactRunnerOptions,
    private readonly config: ReactSubAgent,
    private readonly agent: McpBaseAgent,
    run: ReactRunData,
    private readonly context: StepContext,
    private readonly now: () => number,
  ) {
    this.data = run;
    this.phase = run.pending?.length ? 'tools' : run.closing ? 'closing' : 'model';
    this.modelCalls = run.modelCalls;
    this.first = run.modelCalls === 0 && run.messages.length === 0;
  }

  async run(): Promise<AgentStepResult> {
    this.ran = true;
    switch (this.phase) {
      case 'tools':
        return this.runTools();
      case 'closing':
        return this.closingCall();
      case 'model':
        return this.modelCall();
    }
  }

  private get scope() {
    const slots: Record<string, unknown> = {};
    for (const slot of this.data.input.slots) slots[slot.name] = slot.value;
    for (const event of this.data.events) slots[event.name] = event.value;
    return slots;
  }

  private get model(): ToolChatPort {
    return this.options.models(this.config.configuration.llm);
  }

  private async modelCall(): Promise<AgentStepResult> {
    if (this.data.modelCalls >= MAX_MODEL_CALLS) {
      throw new Error(`${this.config.name} made ${MAX_MODEL_CALLS} model calls without finishing`);
    }
    const tools = await this.toolDefinitions();
    const answer = await this.model.chat({
      messages: [...this.conversation(), ...this.data.messages],
      tools,
      toolChoice: 'auto',
      signal: this.context.signal,
      ...(this.context.deadline !== undefined ? { deadline: this.context.deadline } : {}),
      // Text that comes with tool calls is shown only as a filler: without fillers, no preview.
      ...(this.config.configuration.enable_filler_messages ? this.streaming() : {}),
    });
    if (this.context.signal.aborted) throw this.context.signal.reason;
    const content = answer.content.trim();
    this.data = { ...this.data, modelCalls: this.data.modelCalls + 1 };
    if (answer.toolCalls.length === 0) {
      if (!content)
        throw new EmptyAnswerError('the model answered with neither text nor a tool call');
      return {
        messages: [],
        output: this.output('input_required', { responseMessage: content }),
      };
    }
    const toolCalls = answer.toolCalls.map((call, i) => ({
      ...call,
      id: call.id || `call_${this.data.modelCalls}_${i}`,
    }));
    const completes =
      this.agent.kind === 'open' && toolCalls.some((c) => c.name === TASK_COMPLETED);
    this.data = {
      ...this.data,
      messages: [...this.data.messages, { role: 'assistant', content: answer.content, toolCalls }],
      pending: toolCalls,
      ...(completes ? { completedWith: content } : {}),
    };
    // With task_completed the text is the closing line, said when the run ends; else a filler.
    const filler = !completes && content && this.config.configuration.enable_filler_messages;
    return {
      messages: filler
        ? [{ text: content, metadata: { filler: true, agent_id: this.config.name } }]
        : [],
    };
  }

  private async closingCall(): Promise<AgentStepResult> {
    const instruction =
      this.agent instanceof McpOpenAgent
        ? this.agent.getSystemMessageForEmptyContentAtTaskCompletion()
        : undefined;
    const tools = await this.toolDefinitions();
    const answer = await this.model.chat({
      messages: [
        ...this.conversation(),
        ...this.data.messages,
        ...(instruction ? [instruction] : []),
      ],
      tools,
      toolChoice: 'none',
      signal: this.context.signal,
      ...(this.context.deadline !== undefined ? { deadline: this.context.deadline } : {}),
      ...this.streaming(),
    });
    if (this.context.signal.aborted) throw this.context.signal.reason;
    this.data = { ...this.data, modelCalls: this.data.modelCalls + 1, closing: false };
    const content = answer.content.trim();
    return {
      messages: [],
      output: this.output('completed', content ? { responseMessage: content } : {}),
    };
  }

  private async runTools(): Promise<AgentStepResult> {
    const calls = this.data.pending ?? [];
    const iteration = this.data.modelCalls;
    const results = await Promise.all(calls.map((call) => this.runTool(call, iteration)));
    const current: Record<string, AgentToolResult> = {};
    const messages: ToolChatMessage[] = [...this.data.messages];
    calls.forEach((call, i) => {
      const result = results[i] as AgentToolResult;
      current[call.id] = result;
      messages.push({ role: 'tool', toolCallId: call.id, content: resultText(result) });
    });
    this.data = {
      ...this.data,
      messages,
      results: [
        ...this.data.results,
        ...calls.map((call, i) => ({
          callId: call.id,
          toolName: call.name,
          isError: results[i]?.isError === true,
        })),
      ],
    };
    delete this.data.pending;
    this.applyHookEvents(await this.agent.processToolOutput(current, this.cumulative(current)));

    if (this.agent.kind === 'task' && this.exitConditionsHold()) {
      return { messages: [], output: this.output('completed', {}) };
    }
    if (this.data.completedWith !== undefined) {
      if (this.data.completedWith) {
        return {
          messages: [],
          output: this.output('completed', { responseMessage: this.data.completedWith }),
        };
      }
      this.data = { ...this.data, closing: true };
    }
    return { messages: [] };
  }

  private async runTool(call: ToolCall, iteration: number): Promise<AgentToolResult> {
    // Stable across retries of this step: the run, the model call and the call's id.
    const callKey = `${this.context.runId}#${iteration}#${call.id}`;
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
    if (call.name === TASK_COMPLETED && this.agent.kind === 'open') {
      return { toolName: call.name, result: TASK_COMPLETED_RESULT };
    }
    if (call.name.startsWith(SET_SLOT_PREFIX) && this.agent.kind === 'task') {
      const slot = call.name.slice(SET_SLOT_PREFIX.length);
      if (exitSlots(this.data.exitIf ?? []).includes(slot))
        return this.setSlotTool(call, slot, args);
    }
    const custom = this.agent.getCustomToolDefinitions().find((t) => t.function.name === call.name);
    if (custom) return this.customTool(custom, call, args, callKey);
    const outcome = await this.options.tools(this.config).call(
      {
        toolName: call.name,
        arguments: args,
        senderId: this.senderId,
        slots: this.scope,
        callKey,
      },
      {
        signal: this.context.signal,
        ...(this.context.deadline !== undefined ? { deadline: this.context.deadline } : {}),
        ...(this.config.configuration.tool_timeout !== undefined
          ? { timeoutMs: this.config.configuration.tool_timeout * 1000 }
          : {}),
        maxRetries: this.config.configuration.max_retries,
      },
    );
    return outcome.isError
      ? { toolName: call.name, isError: true, errorMessage: outcome.text }
      : { toolName: call.name, result: outcome.text };
  }

  private setSlotTool(
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
    const definition = this.options.assistant.slots[slot];
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
    this.setSlot(slot, coerced.value);
    return {
      toolName: call.name,
      result: `The slot ${slot} is now ${JSON.stringify(coerced.value)}.`,
    };
  }

  private async customTool(
    tool: CustomToolDefinition,
    call: ToolCall,
    args: Record<string, unknown>,
    callKey: string,
  ): Promise<AgentToolResult> {
    let extra: Readonly<Record<string, unknown>>;
    try {
      extra = await runPreCallHook(
        `buildCustomToolCallMetadata of ${this.config.name}`,
        (ctx) => this.agent.buildCustomToolCallMetadata(ctx),
        { senderId: this.senderId, toolName: call.name, agentId: this.config.name },
      );
    } catch (cause) {
      return {
        toolName: call.name,
        isError: true,
        errorMessage: cause instanceof Error ? cause.message : String(cause),
      };
    }
    const metadata = { ...structuredClone(this.data.input.metadata), ...extra };
    const { tool_timeout: toolTimeout } = this.config.configuration;
    const toolDeadline = toolTimeout === undefined ? undefined : Date.now() + toolTimeout * 1000;
    const deadline = earliest(this.context.deadline, toolDeadline);
    try {
      const answer = await within(
        Promise.resolve(
          tool.toolExecutor(args, {
            metadata,
            signal: this.context.signal,
            idempotencyKey: callKey,
          }),
        ),
        {
          signal: this.context.signal,
          deadline,
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
      if (this.context.signal.aborted) throw this.context.signal.reason;
      return {
        toolName: call.name,
        isError: true,
        errorMessage: `the tool ${call.name} failed: ${cause instanceof Error ? cause.message : String(cause)}`,
      };
    }
  }

  private setSlot(name: string, value: unknown): void {
    this.data = {
      ...this.data,
      events: [...this.data.events.filter((e) => e.name !== name), { event: 'slot', name, value }],
    };
  }

  /** Applies the slot events `processToolOutput` returned; one that is not valid ends the run. */
  private applyHookEvents(events: unknown): void {
    const hook = `processToolOutput of ${this.config.name}`;
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
      const definition = this.options.assistant.slots[name];
      if (!definition || name in BUILTIN_SLOTS)
        throw new Error(`${hook} set ${name}, which is not a slot of the project`);
      const coerced = coerceSlotValue(value, definition);
      if (!coerced.ok)
        throw new Error(`${hook} set ${name} to a value that does not fit it: ${coerced.reason}`);
      this.setSlot(name, coerced.value);
    }
  }

  private exitConditionsHold(): boolean {
    const exitIf = this.data.exitIf ?? [];
    if (exitIf.length === 0) return false;
    const scope = { slots: this.scope };
    return exitIf.every((condition) => conditionHolds(condition, scope));
  }

  private cumulative(current: Record<string, AgentToolResult>): Record<string, AgentToolResult> {
    const texts = new Map<string, string>();
    for (const message of this.data.messages)
      if (message.role === 'tool') texts.set(message.toolCallId, message.content);
    const all: Record<string, AgentToolResult> = {};
    for (const record of this.data.results) {
      const text = texts.get(record.callId) ?? '';
      all[record.callId] =
        current[record.callId] ??
        (record.isError
          ? { toolName: record.toolName, isError: true, errorMessage: text }
          : { toolName: record.toolName, result: text });
    }
    return all;
  }

  private async toolDefinitions(): Promise<ToolDefinition[]> {
    const mcp = await this.options.tools(this.config).list({
      signal: this.context.signal,
      ...(this.context.deadline !== undefined ? { deadline: this.context.deadline } : {}),
      maxRetries: this.config.configuration.max_retries,
    });
    const definitions: ToolDefinition[] = mcp.map((tool) => ({
      type: 'function',
      function: {
        name: tool.name,
        ...(tool.description ? { description: tool.description } : {}),
        parameters: tool.inputSchema,
      },
    }));
    for (const custom of this.agent.getCustomToolDefinitions()) {
      definitions.push({ type: custom.type, function: custom.function });
    }
    if (this.agent instanceof McpOpenAgent) definitions.push(this.agent.getTaskCompletedTool());
    if (this.agent.kind === 'task') {
      for (const slot of exitSlots(this.data.exitIf ?? [])) {
        definitions.push(setSlotTool(slot, this.options.assistant.slots[slot]));
      }
    }
    return definitions;
  }

  /** The system prompt, then the recent conversation. */
  private conversation(): ToolChatMessage[] {
    const { configuration } = this.config;
    const kind = this.agent.kind;
    const lastRequest = this.data.input.metadata.last_message;
    const system = renderPrompt(agentTemplate(this.config, kind), {
      description: this.config.description,
      ...(kind === 'task' ? { slotNames: exitSlots(this.data.exitIf ?? []) } : {}),
      slots: this.scope,
      ...(configuration.include_date_time ? { now: this.now() } : {}),
      timezone: configuration.timezone,
      enableFillerMessages: configuration.enable_filler_messages,
      resumedAfterInterruption: this.data.resumed,
      ...(this.data.resumed && typeof lastRequest === 'string'
        ? { resumedLastRequest: lastRequest }
        : {}),
      restarted: this.data.restarted,
    });
    return [
      { role: 'system', content: system },
      ...historyMessages(this.data.input, this.config.name, {
        restarted: this.data.restarted,
        resumed: this.data.resumed,
      }),
    ];
  }

  /** Streams the model's text to the channel when it shows previews; else one answer at once. */
  private streaming(): { onTextDelta?: (delta: string) => void } {
    const { preview } = this.context;
    return preview ? { onTextDelta: preview } : {};
  }

  private get senderId(): string {
    const sender = this.data.input.metadata.sender_id;
    return typeof sender === 'string' ? sender : '';
  }

  private output(
    status: 'completed' | 'input_required',
    extra: { responseMessage?: string },
  ): AgentOutput {
    return {
      id: this.data.input.id,
      status,
      ...extra,
      ...(this.data.events.length > 0 ? { events: this.data.events } : {}),
    };
  }
}

function fatal(data: ReactRunData, reason: string): StepResult<ReactRunData> {
  return {
    data,
    next: {
      type: 'done',
      output: { id: data.input.id, status: 'fatal_error', errorMessage: reason },
    },
  };
}

function earliest(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return Math.min(a, b);
}

/** The text the model reads back for a tool result. */
function resultText(result: AgentToolResult): string {
  if (result.isError) return `Error: ${result.errorMessage ?? result.result ?? 'the tool failed'}`;
  return result.result ?? '';
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
