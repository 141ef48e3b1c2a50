import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import type { Assistant } from '../src/assistant/index.js';
import { loadAssistant } from '../src/config/index.js';

/** Timing statistics of repeated runs, in milliseconds. */
export interface Timing {
  readonly runs: number;
  readonly minMs: number;
  readonly medianMs: number;
  readonly p95Ms: number;
  readonly maxMs: number;
}

/** Runs `fn` `warmup` times unmeasured, then `runs` times measured. */
export async function measure(
  fn: () => Promise<unknown> | unknown,
  { runs, warmup = 3 }: { runs: number; warmup?: number },
): Promise<Timing> {
  for (let i = 0; i < warmup; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  return timingOf(samples);
}

/**
 * Times two functions taking turns (a, b, a, b, …), so that warm-up, garbage collection and a
 * busy machine weigh on both alike; for ratios of one against the other.
 */
export async function measurePair(
  a: () => Promise<unknown> | unknown,
  b: () => Promise<unknown> | unknown,
  { runs, warmup = 3 }: { runs: number; warmup?: number },
): Promise<{ a: Timing; b: Timing }> {
  for (let i = 0; i < warmup; i++) {
    await a();
    await b();
  }
  const samples: [number[], number[]] = [[], []];
  for (let i = 0; i < runs; i++) {
    for (const [k, fn] of [a, b].entries()) {
      const start = performance.now();
      await fn();
      samples[k]?.push(performance.now() - start);
    }
  }
  return { a: timingOf(samples[0]), b: timingOf(samples[1]) };
}

function timingOf(samples: number[]): Timing {
  samples.sort((x, y) => x - y);
  const at = (q: number) =>
    samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] ?? 0;
  return {
    runs: samples.length,
    minMs: round(samples[0] ?? 0),
    medianMs: round(at(0.5)),
    p95Ms: round(at(0.95)),
    maxMs: round(samples[samples.length - 1] ?? 0),
  };
}

export function round(value: number, digits = 3): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** Wall and CPU time of one measured piece, in milliseconds. */
export interface Sample {
  readonly wallMs: number;
  readonly cpuMs: number;
}

/** This process's CPU time so far (user and system), in milliseconds. */
const cpuMs = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

export function mark(): Sample {
  return { wallMs: performance.now(), cpuMs: cpuMs() };
}

export function since(start: Sample): Sample {
  const end = mark();
  return { wallMs: end.wallMs - start.wallMs, cpuMs: end.cpuMs - start.cpuMs };
}

export function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

export function summary(samples: readonly Sample[]) {
  const wall = samples.map((s) => s.wallMs);
  const cpu = samples.map((s) => s.cpuMs);
  return {
    iterations: samples.length,
    wallMedianMs: round(quantile(wall, 0.5)),
    wallP95Ms: round(quantile(wall, 0.95)),
    cpuMedianMs: round(quantile(cpu, 0.5)),
    cpuP95Ms: round(quantile(cpu, 0.95)),
  };
}

/** Writes a small project into a new temporary folder and loads it. */
export async function benchProject(
  name: string,
  files: Readonly<Record<string, string>>,
): Promise<{ assistant: Assistant; dir: string }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), `switchboard-${name}-bench-`));
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), text);
  }
  const loaded = await loadAssistant({ projectDir: dir, env: {} });
  if (!loaded.ok) throw new Error(loaded.errors.map((e) => e.message).join('\n'));
  return { assistant: loaded.assistant, dir };
}

/**
 * Runs a benchmark's peers (a TypeScript file beside this one) in a child process, so that their
 * CPU is not counted; resolves with the JSON of the first line it prints.
 */
export async function spawnPeers<T>(
  file: string,
  env: Readonly<Record<string, string>> = {},
): Promise<{ ready: T; stop(): void }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', new URL(file, import.meta.url).pathname],
    {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const lines = createInterface({ input: child.stdout });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the benchmark peers exited with ${code}`)));
  });
  return { ready: JSON.parse(first) as T, stop: () => child.kill() };
}
