import { assistant, modules } from '@switchboard/bundle';
import { projectActions } from '../../src/actionServer/index.js';
import { projectAgents } from '../../src/agents/index.js';
import { MODEL_KEY_SECRET } from '../../src/build/secretNames.js';
import { loadProjectActions } from '../../src/extensions/index.js';
import { modelFactory } from '../../src/llm/index.js';
import { projectMcp } from '../../src/mcp/index.js';
import { createRuntime } from '../../src/runtime/index.js';
import { env, projectSecrets, pushKeyOf } from './aws.js';
import { logger } from './observability.js';
import { awsRuntimeParts } from './parts.js';

/**
 * The worker's runtime, built once per container: the assistant and its modules from the
 * generated bundle, the model key from Secrets Manager when the environment names none, the MCP
 * servers' connections, the agents' runners and the custom actions (TypeScript, or on the
 * project's Rasa action server), kept for the container's life.
 */
// A cold start repeats what the project asks for that is not done, such as masking PII.
for (const warning of assistant.warnings ?? []) logger.warn(warning);

const mcp = await projectMcp({ assistant, secrets: projectSecrets, logger, modules });
const models = modelFactory({
  assistant,
  env: process.env,
  secrets: projectSecrets,
  withoutAccess: { keySecret: MODEL_KEY_SECRET },
});

const pushKey = pushKeyOf(env.A2A_PUSH_KEY_SECRET);

export const runtime = createRuntime({
  ...awsRuntimeParts,
  dialogue: {
    assistant,
    models,
    actions: projectActions(await loadProjectActions(assistant, modules), {
      assistant,
      secrets: projectSecrets,
      logger,
    }),
    mcp: mcp.flowTools,
    runners: await projectAgents({
      assistant,
      models,
      gateway: mcp.gateway,
      secrets: projectSecrets,
      modules,
      ...(pushKey ? { pushKey } : {}),
      pushBaseUrl: () => env.A2A_PUSH_BASE_URL,
      logger,
    }),
    random: Math.random,
    logger,
  },
});
