#!/usr/bin/env node
// Writes the assistant bundle (.switchboard/) from the TypeScript sources. The tsx loader lets
// validation import the TypeScript modules the project names.
import { register as registerHooks } from 'node:module';
import { register } from 'tsx/esm/api';

register();
registerHooks('./typescriptAsModules.mjs', import.meta.url);
const { main } = await import('../src/build/main.ts');
process.exitCode = await main(process.argv.slice(2));
