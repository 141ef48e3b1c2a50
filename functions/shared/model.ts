import type { Assistant } from '../../src/assistant/index.js';
import { MODEL_KEY_SECRET } from '../../src/build/secretNames.js';
import type { Environment } from '../../src/config/index.js';
import type { LlmPort } from '../../src/dialogue/index.js';
import { chatModelFor, hasModelAccess, type SecretResolver } from '../../src/llm/index.js';
import type { SecretStore } from '../../src/runtime/index.js';

/**
 * The command generator's model, built on first use so that cold starts read no secret: a model
 * `api_key` reference is read from the secret store, else an `api_base` (or `OPENAI_BASE_URL`)
 * needs none, else the key is the secret `OPENAI_API_KEY`. A failed build is tried again.
 */
export function deployedModel(
  assistant: Assistant,
  secrets: SecretStore,
  env: Environment,
): LlmPort {
  let model: Promise<LlmPort> | undefined;
  const resolver: SecretResolver = { resolve: (ref) => secrets.get(ref.secret) };
  const build = async (): Promise<LlmPort> => {
    const llm = assistant.commandGenerator.llm;
    if (hasModelAccess(llm, assistant, env)) return chatModelFor(llm, assistant, resolver, env);
    const key = await secrets.get(MODEL_KEY_SECRET);
    return chatModelFor(llm, assistant, resolver, { ...env, OPENAI_API_KEY: key });
  };
  return {
    complete: async (request) => {
      model ??= build().catch((error: unknown) => {
        model = undefined;
        throw error;
      });
      return (await model).complete(request);
    },
  };
}
