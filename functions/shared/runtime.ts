import { setTimeout as sleep } from 'node:timers/promises';
import { assistant, modules } from '@switchboard/bundle';
import { SqsJobQueue } from '../../src/adapters/aws/sqsJobQueue.js';
import { DialogueEngine } from '../../src/dialogue/index.js';
import { loadProjectActions } from '../../src/extensions/index.js';
import { UNAVAILABLE_TOOLS } from '../../src/mcp/index.js';
import type { RuntimeDeps } from '../../src/runtime/index.js';
import { projectSecrets, queueOptions } from './aws.js';
import { deployedModel } from './model.js';
import { conversations, replies } from './stores.js';

/**
 * What the worker runs jobs with, built once per container: the assistant and its modules from
 * the generated bundle, and the same DynamoDB and SQS adapters as the local stack.
 */
export const runtime: RuntimeDeps = {
  engine: new DialogueEngine(assistant),
  store: conversations,
  queue: new SqsJobQueue(queueOptions),
  output: replies,
  runners: { runnerFor: () => undefined },
  ports: {
    llm: deployedModel(assistant, projectSecrets, process.env),
    mcp: UNAVAILABLE_TOOLS,
    actions: await loadProjectActions(assistant, modules),
    now: () => Date.now(),
    sleep: (ms, signal) => sleep(ms, undefined, signal ? { signal } : {}),
    random: Math.random,
  },
};
