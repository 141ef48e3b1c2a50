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

/** The tool results of a run, oldest first. */
const toolResults = (data: ReactRunData) =>
  data.messages.filter((m) => m.role === 'tool').map((m) => m.content);

/**
 * `data` (whose slot value is one character) with that value grown until the run takes exactly
 * `size` bytes.
 */
function padded(data: ReactRunData, size: number): ReactRunData {
  const grown = size - bytes(data);
  return { ...data, events: [{ event: 'slot', name: 'notes', value: 'x'.repeat(1 + grown) }] };
}

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

  it('keeps a run of exactly the bound as it is', () => {
    const data = padded(run(['a result']), MAX_RUN_BYTES);
    expect(bytes(data)).toBe(MAX_RUN_BYTES);
    expect(fitRecord(data)).toBe(data);
  });

  it('leaves out no more results than it takes to fit the bound exactly', () => {
    const results = ['1'.repeat(5_000), '2'.repeat(5_000), '3'.repeat(5_000)];
    const saved = bytes(results[0]) - bytes(OMITTED_RESULT);
    const data = padded(run(results), MAX_RUN_BYTES + saved);
    const fitted = fitRecord(data);
    expect(bytes(fitted)).toBe(MAX_RUN_BYTES);
    expect(toolResults(fitted)).toEqual([OMITTED_RESULT, results[1], results[2]]);
  });

  it('keeps what the model said and which call each left-out result answered', () => {
    // Results of about the size of the note that replaces them: each saves little.
    const results = Array.from({ length: 1_000 }, (_, i) => `${i}:${'r'.repeat(200)}`);
    const ran = run(results);
    const data = {
      ...ran,
      messages: ran.messages.map((m) =>
        m.role === 'assistant' ? { ...m, content: 'Looking.' } : m,
      ),
    };
    const fitted = fitRecord(data);
    expect(bytes(fitted)).toBeLessThanOrEqual(MAX_RUN_BYTES);
    const omitted = toolResults(fitted).filter((t) => t === OMITTED_RESULT).length;
    expect(omitted).toBeGreaterThan(0);
    expect(omitted).toBeLessThan(results.length);
    expect(fitted.messages.map((m) => ({ ...m, content: '' }))).toEqual(
      data.messages.map((m) => ({ ...m, content: '' })),
    );
    expect(fitted.messages.filter((m) => m.role === 'assistant')).toEqual(
      data.messages.filter((m) => m.role === 'assistant'),
    );
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
