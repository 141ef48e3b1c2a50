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
