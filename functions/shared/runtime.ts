import { assistant, modules } from '@switchboard/bundle';
import { assembleDialogue } from '../../src/assembly/index.js';
import { MODEL_KEY_SECRET } from '../../src/build/secretNames.js';
import { createRuntime } from '../../src/runtime/index.js';
import { a2aServerChannels } from './a2aServer.js';
import { env, projectSecrets, pushKeyOf } from './aws.js';
import { deploymentChannels } from './channels.js';
import { logger } from './observability.js';
import { awsRuntimeParts } from './parts.js';

// A cold start repeats what the project asks for that is not done, such as masking PII.
for (const warning of assistant.warnings ?? []) logger.warn(warning);

const pushKey = pushKeyOf(env.A2A_PUSH_KEY_SECRET);

/**
 * The worker's runtime, built once per container: the assistant and its modules from the
 * generated bundle, the model key from Secrets Manager when the environment names none, and the
 * dialogue parts (MCP connections, agents' runners, custom actions) kept for the container's life.
 */
const { dialogue } = await assembleDialogue({
  assistant,
  modules,
  env: process.env,
  secrets: projectSecrets,
  logger,
  withoutAccess: { keySecret: MODEL_KEY_SECRET },
  ...(pushKey ? { pushKey } : {}),
  pushBaseUrl: () => env.A2A_PUSH_BASE_URL,
});

export const runtime = createRuntime({
  ...awsRuntimeParts,
  // The A2A server's output: the worker folds its turns into their tasks and sends their pushes.
  channels: (context) => [...deploymentChannels(context), ...a2aServerChannels(context)],
  dialogue,
});
