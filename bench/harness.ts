import { performance } from 'node:perf_hooks';

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
