import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { a2aBenchmark } from './a2a.bench.js';
import { bundlesBenchmark } from './bundles.bench.js';
import { configBenchmark } from './config.bench.js';
import { costBenchmark } from './cost.bench.js';
import { dialogueBenchmark } from './dialogue.bench.js';
import { installBenchmark } from './install.bench.js';
import { mcpBenchmark } from './mcp.bench.js';
import { reactBenchmark } from './react.bench.js';
import { jobCostBenchmark, localThroughputBenchmark } from './runtime.bench.js';
import { soakBenchmark } from './soak.bench.js';

const BENCHMARKS: Readonly<Record<string, () => Promise<Record<string, unknown>>>> = {
  a2a: a2aBenchmark,
  bundles: bundlesBenchmark,
  config: configBenchmark,
  dialogue: dialogueBenchmark,
  cost: costBenchmark,
  install: installBenchmark,
  jobs: jobCostBenchmark,
  mcp: mcpBenchmark,
  react: reactBenchmark,
  soak: soakBenchmark,
  throughput: localThroughputBenchmark,
};

/** `npm run bench [name...]`: runs benchmarks, prints JSON, writes bench/results/<name>.json. */
export async function main(args: readonly string[]): Promise<number> {
  // `install` needs the npm registry: it runs when named.
  const names = args.length > 0 ? args : Object.keys(BENCHMARKS).filter((n) => n !== 'install');
  const outDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'results');
  await mkdir(outDir, { recursive: true });
  for (const name of names) {
    const run = BENCHMARKS[name];
    if (!run) {
      process.stderr.write(
        `unknown benchmark "${name}"; known: ${Object.keys(BENCHMARKS).join(', ')}\n`,
      );
      return 2;
    }
    const result = {
      benchmark: name,
      at: new Date().toISOString(),
      node: process.version,
      cpus: os.cpus().length,
      results: await run(),
    };
    const json = JSON.stringify(result, null, 2);
    process.stdout.write(`${json}\n`);
    await writeFile(path.join(outDir, `${name}.json`), `${json}\n`);
  }
  return 0;
}
