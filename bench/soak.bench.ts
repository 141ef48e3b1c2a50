/**
 * The local stack under long use: agent turns through the REST webhook, with the conversations in
 * a `--state` folder (LevelDB) or in memory, and this process's memory every 100 turns. An agent
 * turn is one user message that starts a general-purpose ReAct agent, which calls an MCP tool once
 * and completes: four jobs, two model calls and a tool call. The model and the MCP server run in a
 * child process, so their memory is not counted. `SOAK_TURNS` (default 1,000),
 * `SOAK_CONVERSATIONS` (25) and `SOAK_MODES` (`state`; `state,memory` runs both) change the run.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import v8 from 'node:v8';
import vm from 'node:vm';
import { dynaliteIterators } from '../src/adapters/local/dynaliteIterators.js';
import type { LlmPort } from '../src/dialogue/index.js';
import { startLocalStack } from '../src/local/index.js';
import { benchProject, round, spawnPeers } from './harness.js';

/** Turns between two memory samples. */
const SAMPLE_EVERY = 100;
/** The turn from which RSS must stay within `FLAT_WITHIN` of its value then. */
const SETTLED_TURN = 200;
const FLAT_WITHIN = 0.2;

type Mode = 'state' | 'memory';

interface MemorySample {
  readonly turn: number;
  readonly seconds: number;
  readonly rssMb: number;
  /** Heap in use after a full garbage collection, and the heap V8 holds from the system. */
  readonly heapMb: number;
  readonly heapTotalMb: number;
  readonly externalMb: number;
  readonly openIterators: number;
}

/** The command generator: every message starts the flow that hands over to the agent. */
const startsTheAgent: LlmPort = { complete: async () => ({ content: 'start flow bench' }) };

export async function soakBenchmark(): Promise<Record<string, unknown>> {
  const turns = Number(process.env.SOAK_TURNS ?? 1000);
  const conversations = Number(process.env.SOAK_CONVERSATIONS ?? 25);
  const modes = (process.env.SOAK_MODES ?? 'state').split(',') as Mode[];
  const peers = await spawnPeers<{ modelUrl: string; mcpUrl: string }>('./reactPeers.ts', {
    REACT_ITERATIONS: '1',
  });
  try {
    const results: Record<string, unknown> = { turns, conversations };
    for (const mode of modes) results[mode] = await soak(mode, turns, conversations, peers.ready);
    return results;
  } finally {
    peers.stop();
  }
}

async function soak(
  mode: Mode,
  turns: number,
  conversations: number,
  peers: { modelUrl: string; mcpUrl: string },
): Promise<Record<string, unknown>> {
  const { assistant, dir } = await benchProject('soak', {
    'endpoints.yml': `mcp_servers:\n  - name: bench\n    url: ${peers.mcpUrl}\n`,
    'domain.yml': 'slots: {}\nresponses:\n  utter_done:\n    - text: Finished.\n',
    'data/flows.yml':
      'flows:\n  bench:\n    description: Work.\n    steps:\n      - call: worker\n      - action: utter_done\n',
    'sub_agents/worker/config.yml':
      'agent:\n  name: worker\n  description: Echoes once, then is done.\nconnections:\n  mcp_servers:\n    - name: bench\n',
  });
  const state = mode === 'state' ? await mkdtemp(path.join(os.tmpdir(), 'switchboard-soak-')) : '';
  const stack = await startLocalStack({
    assistant,
    port: 0,
    env: { OPENAI_API_KEY: 'bench', OPENAI_BASE_URL: peers.modelUrl },
    llm: startsTheAgent,
    announce: () => {},
    replyWaitMs: 60_000,
    ...(mode === 'state' ? { dataDir: state } : {}),
  });
  const gc = exposeGc();
  const samples: MemorySample[] = [];
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const sample = (turn: number) => {
    gc();
    const memory = process.memoryUsage();
    samples.push({
      turn,
      seconds: round((performance.now() - t0) / 1000, 1),
      rssMb: megabytes(memory.rss),
      heapMb: megabytes(memory.heapUsed),
      heapTotalMb: megabytes(memory.heapTotal),
      externalMb: megabytes(memory.external),
      openIterators: dynaliteIterators().open,
    });
  };
  let done = 0;
  let unexpected = 0;
  const examples: string[][] = [];
  // Process warnings during the run (a MaxListenersExceededWarning would mean a shared signal).
  const warnings: string[] = [];
  const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
  process.on('warning', onWarning);
  try {
    sample(0);
    let next = 0;
    await Promise.all(
      Array.from({ length: conversations }, async (_, c) => {
        while (next < turns) {
          next += 1;
          const texts = await say(stack.url, `soak-${c}`, `task ${next}`);
          if (!texts.includes('Finished.')) {
            unexpected += 1;
            if (examples.length < 3) examples.push(texts);
          }
          done += 1;
          if (done % SAMPLE_EVERY === 0) sample(done);
        }
      }),
    );
  } finally {
    process.off('warning', onWarning);
    await stack.stop();
    await rm(dir, { recursive: true, force: true });
    if (state) await rm(state, { recursive: true, force: true });
  }
  const seconds = (performance.now() - t0) / 1000;
  return {
    seconds: round(seconds, 1),
    turnsPerSecond: round(done / seconds, 1),
    // This process's CPU per turn: the stack, dynalite and fauxqs (the peers run elsewhere).
    cpuMsPerTurn: round(cpuMs(process.cpuUsage(cpu0)) / Math.max(1, done), 1),
    unexpectedReplies: unexpected,
    unexpectedExamples: examples,
    warnings,
    ...flatness(samples),
    samples,
  };
}

/**
 * How far RSS moved from `SETTLED_TURN` to the end. One sample swings by about a fifth as V8
 * grows and shrinks its heap and the allocator keeps freed pages, so the change compares the
 * median of the three samples from `SETTLED_TURN` on with the median of the last three; the
 * largest single sample and the trend are reported beside it.
 */
function flatness(samples: readonly MemorySample[]) {
  const later = samples.filter((s) => s.turn >= SETTLED_TURN);
  if (later.length < 6) return {};
  const rss = later.map((s) => s.rssMb);
  const start = median(rss.slice(0, 3));
  const change = (value: number) => round(((value - start) / start) * 100, 1);
  const endPct = change(median(rss.slice(-3)));
  return {
    rssFromTurn: SETTLED_TURN,
    rssStartMb: start,
    rssChangePct: endPct,
    rssFlat: Math.abs(endPct) <= FLAT_WITHIN * 100,
    rssMaxSampleAbovePct: change(Math.max(...rss)),
    rssSlopeMbPer100Turns: round(slope(later.map((s) => [s.turn / SAMPLE_EVERY, s.rssMb])), 1),
    heapSlopeMbPer100Turns: round(slope(later.map((s) => [s.turn / SAMPLE_EVERY, s.heapMb])), 2),
  };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** The least-squares slope of `y` over `x`. */
function slope(points: readonly (readonly [number, number])[]): number {
  const n = points.length;
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / n;
  const mx = mean(points.map(([x]) => x));
  const my = mean(points.map(([, y]) => y));
  const sxy = points.reduce((sum, [x, y]) => sum + (x - mx) * (y - my), 0);
  const sxx = points.reduce((sum, [x]) => sum + (x - mx) ** 2, 0);
  return sxx === 0 ? 0 : sxy / sxx;
}

async function say(url: string, sender: string, message: string): Promise<string[]> {
  const response = await fetch(`${url}/webhooks/rest/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ sender, message }),
  });
  if (response.status !== 200) throw new Error(`webhook answered ${response.status}`);
  const replies = (await response.json()) as { text?: string }[];
  return replies.flatMap((r) => (r.text === undefined ? [] : [r.text]));
}

/** A full garbage collection, without starting node with `--expose-gc`. */
function exposeGc(): () => void {
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}

function cpuMs(usage: NodeJS.CpuUsage): number {
  return (usage.user + usage.system) / 1000;
}

function megabytes(bytes: number): number {
  return round(bytes / 1024 / 1024, 1);
}
