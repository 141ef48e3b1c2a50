import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadAssistant } from '../src/config/index.js';
import {
  type ConversationState,
  DialogueEngine,
  type DialoguePorts,
  NO_ACTIONS,
} from '../src/dialogue/index.js';
import { measure, round } from './harness.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** A zero-latency model and tool: the benchmark measures the engine alone. */
function instantPorts(): DialoguePorts {
  let clock = Date.UTC(2026, 0, 1);
  return {
    llm: {
      complete: async () => ({
        content:
          'start flow estimate_financing\nset slot budget 20000\nset slot loan_term_months 36',
      }),
    },
    agents: {
      invoke: async () => {
        throw new Error('no agent in this benchmark');
      },
    },
    mcp: {
      callTool: async () => ({ isError: false, structuredContent: { monthly_payment: 612.4 } }),
    },
    actions: NO_ACTIONS,
    now: () => (clock += 10),
    random: () => 0,
  };
}

/**
 * One user turn through the dialogue engine (command generation with an instant model, a flow
 * with an MCP call, responses and patterns), for conversations of 10 and 10,000 prior events.
 */
export async function dialogueBenchmark(): Promise<Record<string, unknown>> {
  const loaded = await loadAssistant({ projectDir: root });
  if (!loaded.ok) throw new Error('the example assistant does not validate');
  const engine = new DialogueEngine(loaded.assistant);
  const ports = instantPorts();

  const withHistory = async (events: number): Promise<ConversationState> => {
    let state = engine.start('bench');
    while (state.event_count < events) {
      state = (await engine.handleMessage(state, { text: 'what would a loan cost?' }, ports)).state;
    }
    return state;
  };

  const results: Record<string, unknown> = {};
  for (const prior of [10, 10_000]) {
    const state = await withHistory(prior);
    let events = 0;
    const timing = await measure(
      async () => {
        const turn = await engine.handleMessage(state, { text: 'what would a loan cost?' }, ports);
        events = turn.events.length;
      },
      { runs: 2000, warmup: 200 },
    );
    results[`priorEvents_${prior}`] = {
      priorEvents: state.event_count,
      eventsPerTurn: events,
      stateBytes: Buffer.byteLength(JSON.stringify(state)),
      microsecondsPerTurnMedian: round(timing.medianMs * 1000, 1),
      microsecondsPerTurnP95: round(timing.p95Ms * 1000, 1),
      turnsPerSecond: round(1000 / timing.medianMs, 0),
    };
  }
  return results;
}
