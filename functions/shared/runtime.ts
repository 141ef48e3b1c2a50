import { assistant, modules } from '@switchboard/bundle';
import { MODEL_KEY_SECRET } from '../../src/build/secretNames.js';
import { loadProjectActions } from '../../src/extensions/index.js';
import { modelFactory } from '../../src/llm/index.js';
import { projectMcp } from '../../src/mcp/index.js';
import { createRuntime, NO_RUNNERS } from '../../src/runtime/index.js';
import { projectSecrets } from './aws.js';
import { logger } from './observability.js';
import { awsRuntimeParts } from './parts.js';

/**
 * The worker's runtime, built once per container: the assistant and its modules from the
 * generated bundle, the model key from Secrets Manager when the environment names none, and the
 * MCP servers' connections, kept for the container's life.
 */
const mcp = await projectMcp({ assistant, secrets: projectSecrets, logger, modules });

export const runtime = createRuntime({
  ...awsRuntimeParts,
  dialogue: {
    assistant,
    models: modelFactory({
      assistant,
      env: process.env,
      secrets: projectSecrets,
      withoutAccess: { keySecret: MODEL_KEY_SECRET },
    }),
    actions: await loadProjectActions(assistant, modules),
    mcp: mcp.flowTools,
    runners: NO_RUNNERS,
    random: Math.random,
  },
});
