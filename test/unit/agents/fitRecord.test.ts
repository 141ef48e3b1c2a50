import { describe, expect, it } from 'vitest';
import {
  fitRecord,
  MAX_RUN_BYTES,
  OMITTED_RESULT,
  type ReactRunData,
} from '../../../src/agents/index.js';

function run(results: string[], slotValue = 'x'): ReactRunData {
  return {
    agentId: 'researcher',
    input: {
      id: 'i',
      userMessage: 'go',
      slots: [],
      conversationHistory: '',
      events: [],
      metadata: {},
    },
    inputReady: true,
    resumed: false,
    restarted: false,
    modelCalls: results.length,
    messages: results.flatMap((content, i) => [
      {
        role: 'assistant' as const,
        content: '',
        toolCalls: [{ id: `c${i}`, name: 'search', arguments: '{}' }],
      },
      { role: 'tool' as const, toolCallId: `c${i}`, content },
    ]),
    events: [{ event: 'slot', name: 'notes', value: slotValue }],
    results: [],
  };
}

const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

describe('fitRecord', () => {
  it('keeps a run that fits as it is', () => {
    const data = run(['small', 'results']);
    expect(fitRecord(data)).toBe(data);
  });

  it('leaves out the oldest tool results, counted in bytes, until the run fits', () => {
    // 20,000 characters of three bytes each: 60 KB per result, ten of them.
    const results = Array.from({ length: 10 }, (_, i) => `${i}${'語'.repeat(20_000)}`);
    const fitted = fitRecord(run(results));
    expect(bytes(fitted)).toBeLessThanOrEqual(MAX_RUN_BYTES);
    const tools = fitted.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    const kept = tools.filter((t) => t !== OMITTED_RESULT);
    expect(tools.slice(0, tools.length - kept.length).every((t) => t === OMITTED_RESULT)).toBe(
      true,
    );
    expect(kept.at(-1)?.startsWith('9')).toBe(true);
  });

  it('tells the model that an earlier tool result was left out', () => {
    const results = Array.from({ length: 10 }, (_, i) => `${i}${'語'.repeat(20_000)}`);
    const fitted = fitRecord(run(results));
    expect(fitted.messages[1]).toEqual({
      role: 'tool',
      toolCallId: 'c0',
      content: '[this earlier tool result was left out to keep the run small]',
    });
  });

  it('refuses a run that outgrows its record without any tool result', () => {
    expect(() => fitRecord(run([], 'x'.repeat(MAX_RUN_BYTES)))).toThrow(/outgrew 300000 bytes/);
  });
});
