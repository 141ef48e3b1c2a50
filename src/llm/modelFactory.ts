import type { Assistant, LlmConfig } from '../assistant/index.js';
import type { Environment } from '../config/index.js';
import type { LlmPort } from '../dialogue/index.js';
import { chatModelFor, hasModelAccess } from './resolve.js';
import type { ToolChatPort } from './toolChat.js';

/** A chat model for both uses: text completions (commands) and tool calling (agents). */
export interface ChatModel extends LlmPort, ToolChatPort {}

/** The model an `llm` block selects (undefined: the default model). */
export type ModelFactory = (llm: LlmConfig | undefined) => ChatModel;

/** Where credentials are resolved: a secret store by name. */
export interface SecretLookup {
  get(name: string): Promise<string>;
}

export interface ModelFactoryOptions {
  readonly assistant: Assistant;
  readonly env: Environment;
  readonly secrets: SecretLookup;
  /**
   * Without an API key variable, a model `api_key` or an `api_base`: `{ standIn }` answers
   * instead (the local stack's scripted demo model); `{ keySecret }` reads the OpenAI key from
   * that secret (a deployment keeps it in Secrets Manager). Without either, such a model fails
   * with `NoModelCredentialsError` when called.
   */
  readonly withoutAccess?: { readonly standIn: ChatModel } | { readonly keySecret: string };
}

/**
 * Models for `llm` blocks, one per distinct block for the factory's life (agents ask for theirs
 * at every step), each built on first use (so that a cold start reads no secret) and built again
 * after a failed build.
 */
export function modelFactory(options: ModelFactoryOptions): ModelFactory {
  const { assistant, env, secrets, withoutAccess } = options;
  const resolver = { resolve: (ref: { secret: string }) => secrets.get(ref.secret) };
  const models = new Map<string, ChatModel>();
  const build = (llm: LlmConfig | undefined): ChatModel => {
    if (withoutAccess && !hasModelAccess(llm, assistant, env)) {
      if ('standIn' in withoutAccess) return withoutAccess.standIn;
      return lazyModel(async () => {
        const key = await secrets.get(withoutAccess.keySecret);
        return chatModelFor(llm, assistant, resolver, { ...env, OPENAI_API_KEY: key });
      });
    }
    return lazyModel(() => chatModelFor(llm, assistant, resolver, env));
  };
  return (llm) => {
    const key = JSON.stringify(llm ?? null);
    let model = models.get(key);
    if (!model) {
      model = build(llm);
      models.set(key, model);
    }
    return model;
  };
}

function lazyModel(build: () => Promise<ChatModel>): ChatModel {
  let model: Promise<ChatModel> | undefined;
  const built = () => {
    model ??= build().catch((error: unknown) => {
      model = undefined;
      throw error;
    });
    return model;
  };
  return {
    complete: async (request) => (await built()).complete(request),
    chat: async (request) => (await built()).chat(request),
  };
}
