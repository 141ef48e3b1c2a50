import { describe, expect, it } from 'vitest';
import type { ReactRunData, ReactRunnerOptions } from '../../../src/agents/index.js';
import { Iteration } from '../../../src/agents/iteration.js';
import { McpOpenAgent } from '../../../src/agents/reactAgent.js';
import { StepState } from '../../../src/agents/stepState.js';
import type { ReactSubAgent } from '../../../src/assistant/index.js';
import type { StepContext } from '../../../src/runtime/index.js';

const config = { name: 'researcher' } as ReactSubAgent;

function run(overrides: Partial<ReactRunData> = {}): ReactRunData {
  return {
    agentId: 'researcher',
    input: {
      id: 'invocation-1',
      userMessage: 'go',
      slots: [{ name: 'color', value: 'red', type: 'categorical' }],
      conversationHistory: '',
      events: [],
      metadata: {},
    },
    inputReady: true,
    resumed: false,
    restarted: false,
    modelCalls: 0,
    messages: [],
    events: [],
    results: [],
    ...overrides,
  };
}

function state(data: ReactRunData): StepState {
  const context: StepContext = {
    conversationId: 'c',
    runId: 'r',
    signal: new AbortController().signal,
  };
  return new StepState(
    {} as ReactRunnerOptions,
    config,
    new McpOpenAgent(config),
    data,
    context,
    () => 0,
  );
}

describe('StepState', () => {
  it('returns one slot event per slot, with the value set last', () => {
    const step = state(run());
    step.setSlot('color', 'blue');
    step.setSlot('dealer_name', 'Autohaus Nord');
    step.setSlot('color', 'green');
    expect(step.output('completed', {})).toEqual({
      id: 'invocation-1',
      status: 'completed',
      events: [
        { event: 'slot', name: 'dealer_name', value: 'Autohaus Nord' },
        { event: 'slot', name: 'color', value: 'green' },
      ],
    });
    expect(step.scope).toEqual({ color: 'green', dealer_name: 'Autohaus Nord' });
  });

  it('returns no events when the run set no slot', () => {
    const output = state(run()).output('input_required', { responseMessage: 'Which city?' });
    expect(Object.keys(output).sort()).toEqual(['id', 'responseMessage', 'status']);
  });
});

describe('Iteration', () => {
  it('is the first step only before the run has called the model', () => {
    const first = new Iteration(state(run()));
    expect([first.first, first.phase, first.modelCalls]).toEqual([true, 'model', 0]);
    const toolCalls = [{ id: 'call_1_0', name: 'echo', arguments: '{}' }];
    const later = new Iteration(
      state(
        run({
          modelCalls: 1,
          messages: [{ role: 'assistant', content: 'Checking.', toolCalls }],
          pending: toolCalls,
        }),
      ),
    );
    expect([later.first, later.phase, later.modelCalls]).toEqual([false, 'tools', 1]);
  });
});
