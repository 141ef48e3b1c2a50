import { describe, expect, it } from 'vitest';
import { ReactRunData } from '../../../src/agents/index.js';

describe('ReactRunData', () => {
  it("reads back a run's data as it was stored between two steps", () => {
    const toolCalls = [{ id: 'call_2_0', name: 'echo', arguments: '{"text":"hi"}' }];
    const stored = {
      agentId: 'booker',
      input: {
        id: 'invocation-1',
        userMessage: 'book it',
        slots: [],
        conversationHistory: 'USER: book it',
        events: [],
        metadata: {},
      },
      inputReady: true,
      exitIf: ['slots.dealer_name is not null'],
      resumed: false,
      restarted: true,
      startedAt: 1_782_640_496_789,
      modelCalls: 2,
      messages: [{ role: 'assistant', content: 'Checking.', toolCalls }],
      pending: toolCalls,
      events: [{ event: 'slot', name: 'dealer_name', value: 'Autohaus Nord' }],
      results: [{ callId: 'call_1_0', toolName: 'set_slot_dealer_name', isError: false }],
    };
    expect(ReactRunData.parse(JSON.parse(JSON.stringify(stored)))).toEqual(stored);
  });
});
