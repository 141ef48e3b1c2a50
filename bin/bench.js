#!/usr/bin/env node
// Runs the benchmarks from their TypeScript sources and prints JSON results.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../bench/main.ts');
process.exitCode = await main(process.argv.slice(2));
