import type { Assistant, LlmConfig } from '../assistant/index.js';
import type { Environment } from '../config/index.js';
import { SwitchboardError } from '../resilience/index.js';
import { OpenAiChatModel, type OpenAiChatSettings } from './openaiClient.js';
import type { SecretResolver } from './secrets.js';

/** The model used when no `llm` block or model group names one. */
export const DEFAULT_CHAT_MODEL = 'gpt-5.1-2025-11-13';

/** Sent to servers that take no key (a local vLLM or Ollama); the SDK requires some value. */
const KEYLESS_PLACEHOLDER = 'not-needed';

type ModelSettings = Omit<LlmConfig, 'model_group'>;

/**
 * An `llm` block names a model group that endpoints.yml does not define.
 * Code `MODEL_GROUP_UNKNOWN`.
 */
export class UnknownModelGroupError extends SwitchboardError {
  override readonly name = 'UnknownModelGroupError';
  override readonly code = 'MODEL_GROUP_UNKNOWN';

  constructor(group: string, known: readonly string[]) {
    super(
      `model group "${group}" is not defined in endpoints.yml (defined: ${known.join(', ') || 'none'})`,
    );
  }
}

/** No API key and no API base: the LLM cannot be reached. Code `MODEL_CREDENTIALS_MISSING`. */
export class NoModelCredentialsError extends SwitchboardError {
  override readonly name = 'NoModelCredentialsError';
  override readonly code = 'MODEL_CREDENTIALS_MISSING';

  constructor(model: string) {
    super(
      `no API key for model ${model}: set OPENAI_API_KEY, or give the model an api_key or an api_base in endpoints.yml`,
    );
  }
}

/**
 * The chat model an `llm` block selects: its model group's first model, its inline settings, or
 * the default model, with `OPENAI_API_KEY` and `OPENAI_BASE_URL` filling in what is not set.
 */
export async function chatModelFor(
  llm: LlmConfig | undefined,
  assistant: Assistant,
  secrets: SecretResolver,
  env: Environment,
): Promise<OpenAiChatModel> {
  const settings = modelSettings(llm, assistant);
  const model = settings.model ?? DEFAULT_CHAT_MODEL;
  const baseURL = settings.api_base ?? nonEmpty(env.OPENAI_BASE_URL);
  const apiKey = settings.api_key
    ? await secrets.resolve(settings.api_key)
    : (nonEmpty(env.OPENAI_API_KEY) ?? (baseURL !== undefined ? KEYLESS_PLACEHOLDER : undefined));
  if (apiKey === undefined) throw new NoModelCredentialsError(model);
  return new OpenAiChatModel(chatSettings(settings, model, apiKey, baseURL));
}

/**
 * Whether `chatModelFor` can build a model for this `llm` block: an API key variable, a model
 * `api_key` reference or an API base is available. Without one, callers fall back to a demo model.
 */
export function hasModelAccess(
  llm: LlmConfig | undefined,
  assistant: Assistant,
  env: Environment,
): boolean {
  const settings = modelSettings(llm, assistant);
  return (
    settings.api_key !== undefined ||
    settings.api_base !== undefined ||
    nonEmpty(env.OPENAI_API_KEY) !== undefined ||
    nonEmpty(env.OPENAI_BASE_URL) !== undefined
  );
}

function modelSettings(llm: LlmConfig | undefined, assistant: Assistant): ModelSettings {
  if (llm?.model_group === undefined) return llm ?? {};
  const group = assistant.modelGroups[llm.model_group];
  const first = group?.models[0];
  if (first === undefined) {
    throw new UnknownModelGroupError(llm.model_group, Object.keys(assistant.modelGroups));
  }
  return first;
}

function chatSettings(
  settings: ModelSettings,
  model: string,
  apiKey: string,
  baseURL: string | undefined,
): OpenAiChatSettings {
  const extra = definedOnly({
    max_completion_tokens: settings.max_completion_tokens,
    top_p: settings.top_p,
    seed: settings.seed,
    reasoning_effort: settings.reasoning_effort,
  });
  return {
    model,
    apiKey,
    ...(baseURL !== undefined ? { baseURL } : {}),
    ...(settings.timeout !== undefined ? { timeoutMs: settings.timeout * 1000 } : {}),
    ...(settings.max_tokens !== undefined ? { maxTokens: settings.max_tokens } : {}),
    ...(settings.temperature !== undefined ? { temperature: settings.temperature } : {}),
    ...(Object.keys(extra).length > 0 ? { extra } : {}),
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

function definedOnly(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));
}
