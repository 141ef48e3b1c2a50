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
  samples.sort((a, b) => a - b);
  const at = (q: number) =>
    samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] ?? 0;
  return {
    runs,
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
