#!/usr/bin/env node
// Runs the Switchboard CLI from its TypeScript sources. The tsx loader also lets the CLI import
// the TypeScript modules an assistant project names (custom agents, hooks, actions). Help needs
// neither: it is answered first, in plain JavaScript.
import { register as registerHooks } from 'node:module';
import { helpRequested } from '../src/cli/help.mjs';

const help = helpRequested(process.argv.slice(2));
if (help !== undefined) {
  process.stdout.write(`${help}\n`);
} else {
  // Dependencies are pinned exactly and Lambda runs Node 22: the SDK's Node 20 notice is noise.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const { register } = await import('tsx/esm/api');
  register();
  registerHooks('./typescriptAsModules.mjs', import.meta.url);
  const { main } = await import('../src/cli/main.ts');
  process.exitCode = await main(process.argv.slice(2));
}
