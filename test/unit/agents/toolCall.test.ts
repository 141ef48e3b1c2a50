import { describe, expect, it, vi } from 'vitest';
import type { AgentToolResult, CustomToolDefinition } from '../../../src/agents/protocol.js';
import { McpOpenAgent, McpTaskAgent } from '../../../src/agents/reactAgent.js';
import { runToolCall } from '../../../src/agents/toolCall.js';
import type { ReactSubAgent } from '../../../src/assistant/index.js';
import { RecordingTools, reactStep } from '../../helpers/reactStep.js';

const open = (config: ReactSubAgent) => new McpOpenAgent(config);
const task = (config: ReactSubAgent) => new McpTaskAgent(config);
const BOOKING_EXIT = ['slots.dealer_name is not null and slots.appointment_time is not null'];

/** A task agent with one custom tool, `check_stock`, that runs `executor`. */
function withCustomTool(executor: CustomToolDefinition['toolExecutor']) {
  return (config: ReactSubAgent) =>
    new (class extends McpTaskAgent {
      override getCustomToolDefinitions(): readonly CustomToolDefinition[] {
        return [
          {
            type: 'function',
            function: { name: 'check_stock', description: 'Checks the stock.', parameters: {} },
            toolExecutor: executor,
          },
        ];
      }
    })(config);
}

/** A custom tool that answers only when the step gives up on it. */
const neverAnswers = () => new Promise<AgentToolResult>(() => {});

describe('runToolCall', () => {
  describe('arguments', () => {
    it.each([
      ['a list', '[1, 2]'],
      ['null', 'null'],
      ['a number', '42'],
      ['a string', '"dealer"'],
    ])('gives the model an error result when the arguments are %s', async (_, text) => {
      const tools = new RecordingTools();
      const step = reactStep({ agent: open, tools });
      const result = await runToolCall(step, { id: 'c1', name: 'search', arguments: text }, 1);
      expect(result).toStrictEqual({
        toolName: 'search',
        isError: true,
        errorMessage: 'the arguments of search must be a JSON object',
      });
      expect(tools.calls).toEqual([]);
    });

    it('gives the model an error result when the arguments are not JSON', async () => {
      const step = reactStep({ agent: open });
      const result = await runToolCall(step, { id: 'c1', name: 'search', arguments: '{"q":' }, 1);
      expect(result.isError).toBe(true);
      expect(result.errorMessage).toMatch(/^the arguments of search are not valid JSON \(.+\)$/);
    });

    it('takes blank arguments as no arguments', async () => {
      const tools = new RecordingTools();
      const step = reactStep({ agent: open, tools });
      const result = await runToolCall(step, { id: 'c1', name: 'search', arguments: '  \n' }, 1);
      expect(result).toStrictEqual({ toolName: 'search', result: 'search answered' });
      expect(tools.calls[0]?.call.arguments).toEqual({});
    });
  });

  describe('task_completed', () => {
    it('ends an open agent’s task without calling any server', async () => {
      const tools = new RecordingTools();
      const step = reactStep({ agent: open, tools });
      const result = await runToolCall(
        step,
        { id: 'c1', name: 'task_completed', arguments: '{}' },
        1,
      );
      expect(result).toStrictEqual({ toolName: 'task_completed', result: 'Task completed' });
      expect(tools.calls).toEqual([]);
    });

    it('is an ordinary tool name for a task agent', async () => {
      const tools = new RecordingTools();
      const step = reactStep({ agent: task, tools, exitIf: BOOKING_EXIT });
      const result = await runToolCall(
        step,
        { id: 'c1', name: 'task_completed', arguments: '{}' },
        1,
      );
      expect(result).toStrictEqual({
        toolName: 'task_completed',
        result: 'task_completed answered',
      });
      expect(tools.calls.map((c) => c.call.toolName)).toEqual(['task_completed']);
    });
  });

  describe('set_slot tools', () => {
    it('sets an exit_if slot of a task agent and tells the model its new value', async () => {
      const tools = new RecordingTools();
      const step = reactStep({
        agent: task,
        tools,
        exitIf: BOOKING_EXIT,
        slots: { dealer_name: { type: 'text' } },
      });
      const result = await runToolCall(
        step,
        { id: 'c1', name: 'set_slot_dealer_name', arguments: '{"slot_value": "Autohaus Nord"}' },
        1,
      );
      expect(result).toStrictEqual({
        toolName: 'set_slot_dealer_name',
        result: 'The slot dealer_name is now "Autohaus Nord".',
      });
      expect(step.scope).toEqual({ dealer_name: 'Autohaus Nord' });
      expect(tools.calls).toEqual([]);
    });

    it('takes the value as given for an exit_if slot the domain does not define', async () => {
      const step = reactStep({ agent: task, exitIf: BOOKING_EXIT, slots: {} });
      const result = await runToolCall(
        step,
        { id: 'c1', name: 'set_slot_appointment_time', arguments: '{"slot_value": [9, 30]}' },
        1,
      );
      expect(result).toStrictEqual({
        toolName: 'set_slot_appointment_time',
        result: 'The slot appointment_time is now [9,30].',
      });
      expect(step.scope).toEqual({ appointment_time: [9, 30] });
    });

    it('refuses a call without slot_value and leaves the slot alone', async () => {
      const step = reactStep({
        agent: task,
        exitIf: BOOKING_EXIT,
        slots: { dealer_name: { type: 'text' } },
      });
      const result = await runToolCall(
        step,
        { id: 'c1', name: 'set_slot_dealer_name', arguments: '{"value": "Autohaus Nord"}' },
        1,
      );
      expect(result).toStrictEqual({
        toolName: 'set_slot_dealer_name',
        isError: true,
        errorMessage: 'set_slot_dealer_name needs a slot_value',
      });
      expect(step.scope).toEqual({});
    });

    it('refuses a value that does not fit the slot', async () => {
      const step = reactStep({
        agent: task,
        exitIf: ['slots.color is not null'],
        slots: { color: { type: 'categorical', values: ['red', 'blue'] } },
      });
      const result = await runToolCall(
        step,
        { id: 'c1', name: 'set_slot_color', arguments: '{"slot_value": "green"}' },
        1,
      );
      expect(result.isError).toBe(true);
      expect(result.errorMessage).toMatch(/^"green" does not fit the slot color: /);
      expect(step.scope).toEqual({});
    });

    it('lets a task agent set only the slots its exit_if reads', async () => {
      const tools = new RecordingTools();
      const step = reactStep({
        agent: task,
        tools,
        exitIf: BOOKING_EXIT,
        slots: { dealer_name: { type: 'text' }, color: { type: 'text' } },
      });
      const result = await runToolCall(
        step,
        { id: 'c1', name: 'set_slot_color', arguments: '{"slot_value": "red"}' },
        1,
      );
      expect(result).toStrictEqual({
        toolName: 'set_slot_color',
        result: 'set_slot_color answered',
      });
      expect(tools.calls.map((c) => c.call.toolName)).toEqual(['set_slot_color']);
      expect(step.scope).toEqual({});
    });

    it('sets no slot for an open agent, even one whose step has an exit_if', async () => {
      const tools = new RecordingTools();
      const step = reactStep({
        agent: open,
        tools,
        exitIf: BOOKING_EXIT,
        slots: { dealer_name: { type: 'text' } },
      });
      const result = await runToolCall(
        step,
        { id: 'c1', name: 'set_slot_dealer_name', arguments: '{"slot_value": "Autohaus Nord"}' },
        1,
      );
      expect(result).toStrictEqual({
        toolName: 'set_slot_dealer_name',
        result: 'set_slot_dealer_name answered',
      });
      expect(tools.calls.map((c) => c.call.toolName)).toEqual(['set_slot_dealer_name']);
      expect(step.scope).toEqual({});
    });
  });

  describe('MCP tools', () => {
    it('calls the tool with the arguments, the sender, the slots and a key per call', async () => {
      const tools = new RecordingTools();
      const step = reactStep({ agent: open, tools, metadata: { sender_id: 'user-7' } });
      step.setSlot('dealer_name', 'Autohaus Nord');
      await runToolCall(step, { id: 'call_a', name: 'search', arguments: '{"q": "cars"}' }, 4);
      expect(tools.calls[0]?.call).toStrictEqual({
        toolName: 'search',
        arguments: { q: 'cars' },
        senderId: 'user-7',
        slots: { dealer_name: 'Autohaus Nord' },
        callKey: 'run-1#4#call_a',
      });
    });

    it('sends an empty sender when the metadata’s sender_id is not text', async () => {
      const tools = new RecordingTools();
      const step = reactStep({ agent: open, tools, metadata: { sender_id: 42 } });
      await runToolCall(step, { id: 'c1', name: 'search', arguments: '{}' }, 1);
      expect(tools.calls[0]?.call.senderId).toBe('');
    });

    it('passes the step’s signal, deadline, tool_timeout and max_retries to the call', async () => {
      const tools = new RecordingTools();
      const signal = new AbortController().signal;
      const step = reactStep({
        agent: open,
        tools,
        signal,
        deadline: 1_700_000_000_000,
        configuration: { tool_timeout: 2.5, max_retries: 1 },
      });
      await runToolCall(step, { id: 'c1', name: 'search', arguments: '{}' }, 1);
      expect(tools.calls[0]?.options).toStrictEqual({
        signal,
        deadline: 1_700_000_000_000,
        timeoutMs: 2500,
        maxRetries: 1,
      });
    });

    it('leaves out the deadline and the timeout when the step has neither', async () => {
      const tools = new RecordingTools();
      const signal = new AbortController().signal;
      const step = reactStep({ agent: open, tools, signal });
      await runToolCall(step, { id: 'c1', name: 'search', arguments: '{}' }, 1);
      expect(tools.calls[0]?.options).toStrictEqual({ signal, maxRetries: 3 });
    });

    it('hands an error the server answered with to the model', async () => {
      const tools = new RecordingTools(() => ({ text: 'no such dealer', isError: true }));
      const step = reactStep({ agent: open, tools });
      const result = await runToolCall(step, { id: 'c1', name: 'search', arguments: '{}' }, 1);
      expect(result).toStrictEqual({
        toolName: 'search',
        isError: true,
        errorMessage: 'no such dealer',
      });
    });
  });

  describe('custom tools', () => {
    it('runs the executor with the arguments, the input’s metadata and a key per call', async () => {
      const executor = vi.fn(() => ({ toolName: 'check_stock', result: '3 in stock' }));
      const tools = new RecordingTools();
      const step = reactStep({
        agent: withCustomTool(executor),
        tools,
        exitIf: BOOKING_EXIT,
        metadata: { sender_id: 'user-7', plan: 'gold' },
      });
      const result = await runToolCall(
        step,
        { id: 'call_b', name: 'check_stock', arguments: '{"model": "A4"}' },
        2,
      );
      expect(result).toStrictEqual({ toolName: 'check_stock', result: '3 in stock' });
      expect(executor).toHaveBeenCalledWith(
        { model: 'A4' },
        expect.objectContaining({
          metadata: { sender_id: 'user-7', plan: 'gold' },
          idempotencyKey: 'run-1#2#call_b',
        }),
      );
      expect(tools.calls).toEqual([]);
    });

    it('hands the model the error the tool answered with', async () => {
      const step = reactStep({
        agent: withCustomTool(() => ({
          toolName: 'check_stock',
          isError: true,
          errorMessage: 'the stock service is down',
        })),
        exitIf: BOOKING_EXIT,
      });
      const result = await runToolCall(step, { id: 'c1', name: 'check_stock', arguments: '' }, 1);
      expect(result).toStrictEqual({
        toolName: 'check_stock',
        isError: true,
        errorMessage: 'the stock service is down',
      });
    });

    it('drops the null fields of the tool’s answer', async () => {
      const step = reactStep({
        agent: withCustomTool(
          () =>
            ({
              toolName: 'check_stock',
              result: null,
              isError: true,
              errorMessage: 'out of stock',
            }) as unknown as AgentToolResult,
        ),
        exitIf: BOOKING_EXIT,
      });
      const result = await runToolCall(step, { id: 'c1', name: 'check_stock', arguments: '' }, 1);
      expect(result).toStrictEqual({
        toolName: 'check_stock',
        isError: true,
        errorMessage: 'out of stock',
      });
    });

    it('gives a result without fields it was not answered with', async () => {
      const step = reactStep({
        agent: withCustomTool(
          () =>
            ({
              toolName: 'check_stock',
              result: 'ok',
              errorMessage: null,
            }) as unknown as AgentToolResult,
        ),
        exitIf: BOOKING_EXIT,
      });
      const result = await runToolCall(step, { id: 'c1', name: 'check_stock', arguments: '' }, 1);
      expect(result).toStrictEqual({ toolName: 'check_stock', result: 'ok' });
    });

    it('cuts a result longer than an MCP tool’s may be', async () => {
      const long = `${'a'.repeat(20_000)}bcd`;
      const step = reactStep({
        agent: withCustomTool(() => ({ toolName: 'check_stock', result: long })),
        exitIf: BOOKING_EXIT,
      });
      const result = await runToolCall(step, { id: 'c1', name: 'check_stock', arguments: '' }, 1);
      expect(result.result).toBe(`${'a'.repeat(20_000)}… [cut at 20000 characters]`);
    });

    it('keeps a result exactly as long as an MCP tool’s may be', async () => {
      const full = 'a'.repeat(20_000);
      const step = reactStep({
        agent: withCustomTool(() => ({ toolName: 'check_stock', result: full })),
        exitIf: BOOKING_EXIT,
      });
      const result = await runToolCall(step, { id: 'c1', name: 'check_stock', arguments: '' }, 1);
      expect(result.result).toBe(full);
    });

    it('gives up on a tool after its tool_timeout, not before', async () => {
      vi.useFakeTimers();
      const step = reactStep({
        agent: withCustomTool(neverAnswers),
        exitIf: BOOKING_EXIT,
        configuration: { tool_timeout: 2 },
      });
      let result: AgentToolResult | undefined;
      void runToolCall(step, { id: 'c1', name: 'check_stock', arguments: '' }, 1).then((r) => {
        result = r;
      });
      await vi.advanceTimersByTimeAsync(1_999);
      expect(result).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      expect(result).toStrictEqual({
        toolName: 'check_stock',
        isError: true,
        errorMessage:
          'the tool check_stock failed: the tool check_stock took longer than its tool_timeout of 2 s',
      });
    });

    it('waits for a tool without tool_timeout as long as it takes', async () => {
      vi.useFakeTimers();
      const step = reactStep({
        agent: withCustomTool(
          () =>
            new Promise((resolve) =>
              setTimeout(() => resolve({ toolName: 'check_stock', result: 'late' }), 60_000),
            ),
        ),
        exitIf: BOOKING_EXIT,
      });
      const pending = runToolCall(step, { id: 'c1', name: 'check_stock', arguments: '' }, 1);
      await vi.advanceTimersByTimeAsync(60_000);
      await expect(pending).resolves.toStrictEqual({ toolName: 'check_stock', result: 'late' });
    });

    it.each([
      ['a longer tool_timeout', { tool_timeout: 10 }],
      ['no tool_timeout', {}],
    ])('says the step’s deadline passed when it comes before %s', async (_, configuration) => {
      vi.useFakeTimers();
      const step = reactStep({
        agent: withCustomTool(neverAnswers),
        exitIf: BOOKING_EXIT,
        configuration,
        deadline: Date.now() + 1_000,
      });
      const pending = runToolCall(step, { id: 'c1', name: 'check_stock', arguments: '' }, 1);
      await vi.advanceTimersByTimeAsync(1_000);
      await expect(pending).resolves.toStrictEqual({
        toolName: 'check_stock',
        isError: true,
        errorMessage:
          "the tool check_stock failed: the tool check_stock did not answer before the step's deadline",
      });
    });

    it('gives up the step, not the model an error, when the step is cancelled', async () => {
      const controller = new AbortController();
      const step = reactStep({
        agent: withCustomTool(neverAnswers),
        exitIf: BOOKING_EXIT,
        signal: controller.signal,
      });
      const pending = runToolCall(step, { id: 'c1', name: 'check_stock', arguments: '' }, 1);
      await Promise.resolve();
      controller.abort(new Error('the run was cancelled'));
      await expect(pending).rejects.toThrow('the run was cancelled');
    });
  });
});
