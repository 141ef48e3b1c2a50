#!/usr/bin/env node
// Runs the Switchboard CLI from its TypeScript sources. The tsx loader also lets the CLI import
// the TypeScript modules an assistant project names (custom agents, hooks, actions).
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
