import { describe, expect, it } from 'vitest';
import type { AgentToolResult, CustomToolDefinition } from '../../../src/agents/protocol.js';
import { McpOpenAgent, McpTaskAgent } from '../../../src/agents/reactAgent.js';
import { runTools } from '../../../src/agents/toolPhase.js';
import type {
  AgentSlotEvent,
  ReactSubAgent,
  SlotDefinition,
} from '../../../src/assistant/index.js';
import { RecordingTools, reactStep } from '../../helpers/reactStep.js';

const BOOKING_EXIT = ['slots.dealer_name is not null'];
const SLOTS: Readonly<Record<string, SlotDefinition>> = {
  dealer_name: { type: 'text' },
  color: { type: 'categorical', values: ['red'] },
};

type Results = Readonly<Record<string, AgentToolResult>>;

/** What `processToolOutput` was given, and what it answers with. */
class HookRecorder {
  readonly seen: { current: Results; cumulative: Results }[] = [];
  constructor(readonly answer: unknown) {}
}

/** A task agent whose `processToolOutput` reports to `hook`, with the custom tools given. */
function taskAgent(hook: HookRecorder, custom: readonly CustomToolDefinition[] = []) {
  return (config: ReactSubAgent) =>
    new (class extends McpTaskAgent {
      override getCustomToolDefinitions(): readonly CustomToolDefinition[] {
        return custom;
      }
      override async processToolOutput(
        current: Results,
        cumulative: Results,
      ): Promise<readonly AgentSlotEvent[]> {
        hook.seen.push({ current, cumulative });
        return hook.answer as AgentSlotEvent[];
      }
    })(config);
}

/** A custom tool named `name` that answers with `answer`. */
function customTool(name: string, answer: unknown): CustomToolDefinition {
  return {
    type: 'function',
    function: { name, description: name, parameters: {} },
    toolExecutor: () => answer as AgentToolResult,
  };
}

describe('runTools', () => {
  it('gives each tool call of one answer its own idempotency key', async () => {
    const tools = new RecordingTools();
    const step = reactStep({
      agent: taskAgent(new HookRecorder([])),
      tools,
      exitIf: BOOKING_EXIT,
      modelCalls: 3,
      pending: [
        { id: 'call_a', name: 'search', arguments: '{"q": "a"}' },
        { id: 'call_b', name: 'search', arguments: '{"q": "b"}' },
      ],
    });
    await runTools(step);
    expect(tools.calls.map((c) => c.call.callKey)).toEqual(['run-1#3#call_a', 'run-1#3#call_b']);
  });

  it('hands the model each result, records which failed and clears the pending calls', async () => {
    const tools = new RecordingTools((call) =>
      call.toolName === 'search'
        ? { text: 'two dealers', isError: false }
        : { text: 'no such dealer', isError: true },
    );
    const step = reactStep({
      agent: taskAgent(new HookRecorder([])),
      tools,
      exitIf: BOOKING_EXIT,
      pending: [
        { id: 'call_a', name: 'search', arguments: '{}' },
        { id: 'call_b', name: 'lookup', arguments: '{}' },
      ],
    });
    await expect(runTools(step)).resolves.toStrictEqual({ messages: [] });
    expect(step.data.messages).toEqual([
      { role: 'tool', toolCallId: 'call_a', content: 'two dealers' },
      { role: 'tool', toolCallId: 'call_b', content: 'Error: no such dealer' },
    ]);
    expect(step.data.results).toEqual([
      { callId: 'call_a', toolName: 'search', isError: false },
      { callId: 'call_b', toolName: 'lookup', isError: true },
    ]);
    expect(step.data.pending).toBeUndefined();
  });

  it('tells the model a tool failed when it failed without a word, and an empty result as empty', async () => {
    const step = reactStep({
      agent: taskAgent(new HookRecorder([]), [
        customTool('silent_failure', { isError: true }),
        customTool('silent_success', {}),
      ]),
      exitIf: BOOKING_EXIT,
      pending: [
        { id: 'call_a', name: 'silent_failure', arguments: '' },
        { id: 'call_b', name: 'silent_success', arguments: '' },
      ],
    });
    await runTools(step);
    expect(step.data.messages).toEqual([
      { role: 'tool', toolCallId: 'call_a', content: 'Error: the tool failed' },
      { role: 'tool', toolCallId: 'call_b', content: '' },
    ]);
  });

  it('gives processToolOutput this step’s results and all results of the run so far', async () => {
    const hook = new HookRecorder([]);
    const tools = new RecordingTools(() => ({ text: 'booked', isError: false }));
    const step = reactStep({
      agent: taskAgent(hook),
      tools,
      exitIf: BOOKING_EXIT,
      pending: [{ id: 'call_c', name: 'book', arguments: '{}' }],
      data: {
        messages: [
          {
            role: 'assistant',
            content: 'Looking.',
            toolCalls: [
              { id: 'call_a', name: 'search', arguments: '{}' },
              { id: 'call_b', name: 'lookup', arguments: '{}' },
            ],
          },
          { role: 'tool', toolCallId: 'call_a', content: 'two dealers' },
          { role: 'tool', toolCallId: 'call_b', content: 'Error: no such dealer' },
          {
            role: 'assistant',
            content: 'Booking.',
            toolCalls: [{ id: 'call_c', name: 'book', arguments: '{}' }],
          },
        ],
        results: [
          { callId: 'call_a', toolName: 'search', isError: false },
          { callId: 'call_b', toolName: 'lookup', isError: true },
        ],
      },
    });
    await runTools(step);
    expect(hook.seen).toStrictEqual([
      {
        current: { call_c: { toolName: 'book', result: 'booked' } },
        cumulative: {
          call_a: { toolName: 'search', result: 'two dealers' },
          call_b: { toolName: 'lookup', isError: true, errorMessage: 'Error: no such dealer' },
          call_c: { toolName: 'book', result: 'booked' },
        },
      },
    ]);
  });

  describe('the slot events processToolOutput returns', () => {
    it('sets the slots they name, as the domain types them', async () => {
      const step = reactStep({
        agent: taskAgent(new HookRecorder([{ event: 'slot', name: 'color', value: 'Red' }])),
        exitIf: BOOKING_EXIT,
        slots: SLOTS,
        pending: [{ id: 'call_a', name: 'search', arguments: '{}' }],
      });
      await runTools(step);
      expect(step.scope).toEqual({ color: 'red' });
    });

    it.each<[string, unknown, string]>([
      [
        'anything but a list',
        undefined,
        'processToolOutput of booker returned undefined, not a list of slot events',
      ],
      [
        'an event without a name',
        [{ event: 'slot', value: 'red' }],
        `processToolOutput of booker returned an event that is not { event: 'slot', name, value }: {"event":"slot","value":"red"}`,
      ],
      [
        'an event that is not even JSON',
        [undefined],
        `processToolOutput of booker returned an event that is not { event: 'slot', name, value }: undefined`,
      ],
      [
        'a slot the project lacks',
        [{ event: 'slot', name: 'mood', value: 'fine' }],
        'processToolOutput of booker set mood, which is not a slot of the project',
      ],
    ])('ends the run on %s', async (_, events, message) => {
      const step = reactStep({
        agent: taskAgent(new HookRecorder(events)),
        exitIf: BOOKING_EXIT,
        slots: SLOTS,
        pending: [{ id: 'call_a', name: 'search', arguments: '{}' }],
      });
      await expect(runTools(step)).rejects.toThrow(new Error(message));
      expect(step.scope).toEqual({});
    });

    it('quotes at most 200 characters of an event that is not valid', async () => {
      const event = { event: 'note', text: 'x'.repeat(300) };
      const step = reactStep({
        agent: taskAgent(new HookRecorder([event])),
        exitIf: BOOKING_EXIT,
        pending: [{ id: 'call_a', name: 'search', arguments: '{}' }],
      });
      const error = await runTools(step).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toBe(
        `processToolOutput of booker returned an event that is not { event: 'slot', name, value }: ${JSON.stringify(event).slice(0, 200)}`,
      );
    });

    it('ends the run on a value that does not fit its slot', async () => {
      const step = reactStep({
        agent: taskAgent(new HookRecorder([{ event: 'slot', name: 'color', value: 'green' }])),
        exitIf: BOOKING_EXIT,
        slots: SLOTS,
        pending: [{ id: 'call_a', name: 'search', arguments: '{}' }],
      });
      await expect(runTools(step)).rejects.toThrow(
        /^processToolOutput of booker set color to a value that does not fit it: .+/,
      );
      expect(step.scope).toEqual({});
    });
  });

  describe('the end of the run', () => {
    it('completes a task agent silently once its exit conditions hold', async () => {
      const step = reactStep({
        agent: taskAgent(
          new HookRecorder([{ event: 'slot', name: 'dealer_name', value: 'Autohaus Nord' }]),
        ),
        exitIf: BOOKING_EXIT,
        slots: SLOTS,
        pending: [{ id: 'call_a', name: 'search', arguments: '{}' }],
      });
      await expect(runTools(step)).resolves.toStrictEqual({
        messages: [],
        output: {
          id: 'input-1',
          status: 'completed',
          events: [{ event: 'slot', name: 'dealer_name', value: 'Autohaus Nord' }],
        },
      });
    });

    it('keeps a task agent working while its exit conditions do not hold', async () => {
      const step = reactStep({
        agent: taskAgent(new HookRecorder([{ event: 'slot', name: 'color', value: 'red' }])),
        exitIf: BOOKING_EXIT,
        slots: SLOTS,
        pending: [{ id: 'call_a', name: 'search', arguments: '{}' }],
      });
      await expect(runTools(step)).resolves.toStrictEqual({ messages: [] });
    });

    it('keeps an open agent working until task_completed, whatever its step’s exit_if says', async () => {
      const step = reactStep({
        agent: (config) =>
          new (class extends McpOpenAgent {
            override async processToolOutput(): Promise<readonly AgentSlotEvent[]> {
              return [{ event: 'slot', name: 'dealer_name', value: 'Autohaus Nord' }];
            }
          })(config),
        exitIf: BOOKING_EXIT,
        slots: SLOTS,
        pending: [{ id: 'call_a', name: 'search', arguments: '{}' }],
      });
      await expect(runTools(step)).resolves.toStrictEqual({ messages: [] });
      expect(step.scope).toEqual({ dealer_name: 'Autohaus Nord' });
    });
  });
});
