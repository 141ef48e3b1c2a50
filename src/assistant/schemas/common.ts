import * as z from 'zod';
import { type KeyHints, knownKeysError } from './knownKeys.js';

/**
 * A strict mapping: unknown keys are errors with a did-you-mean suggestion, or for a key `hints`
 * knows (one Rasa projects write where Rasa does not read it), what to write instead.
 */
export function strictObject<T extends z.ZodRawShape>(shape: T, hints?: KeyHints) {
  return z.strictObject(shape, { error: knownKeysError(Object.keys(shape), hints) });
}

/** A credential kept as the name of its environment variable or secret, never its value. */
export const SecretRef = z.strictObject({ secret: z.string() });
export type SecretRef = z.infer<typeof SecretRef>;

export const NonEmptyString = z.string().trim().min(1, { error: 'must not be empty' });

export const PositiveNumber = z.number().positive({ error: 'must be greater than 0' });

/**
 * A TypeScript extension point written as a dotted path: `custom.car_agent.CarAgent` names the
 * export `CarAgent` of `custom/car_agent.ts` in the project.
 */
export const ModulePath = z.string().regex(/^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)+$/, {
  error: 'must be a dotted path such as "custom.my_module.MyExport"',
});

/** Settings of one LLM, shared by model groups and inline `llm` blocks. */
export const modelSettingsShape = {
  provider: NonEmptyString.optional(),
  model: NonEmptyString.optional(),
  api_base: NonEmptyString.optional(),
  api_key: SecretRef.optional(),
  api_version: z.string().optional(),
  api_type: z.string().optional(),
  deployment: z.string().optional(),
  timeout: PositiveNumber.optional(),
  max_tokens: z.number().int().positive().optional(),
  max_completion_tokens: z.number().int().positive().optional(),
  temperature: z.number().min(0).max(2).optional(),
  top_p: z.number().min(0).max(1).optional(),
  seed: z.number().int().optional(),
  reasoning_effort: z.enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh']).optional(),
  max_retries: z.number().int().min(0).optional(),
};

/**
 * An `llm` block: a model group reference, or inline model settings. `model-group` is accepted as
 * a spelling of `model_group`, as some Rasa projects use it.
 */
export const LlmConfig = z.preprocess(
  (value) => {
    if (value === null || typeof value !== 'object' || !('model-group' in value)) return value;
    const { 'model-group': group, ...rest } = value as Record<string, unknown>;
    return { model_group: group, ...rest };
  },
  strictObject({ model_group: NonEmptyString.optional(), ...modelSettingsShape }),
);
export type LlmConfig = z.infer<typeof LlmConfig>;

/** OAuth 2.0 client-credentials settings. */
export const OAuthConfig = strictObject({
  client_id: NonEmptyString,
  client_secret: SecretRef,
  token_url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }),
  scope: z.string().optional(),
  audience: z.string().optional(),
  timeout: PositiveNumber.optional(),
});
export type OAuthConfig = z.infer<typeof OAuthConfig>;

/** The authentication keys shared by MCP servers and A2A agents: one method at most. */
export const authShape = {
  api_key: SecretRef.optional(),
  header_name: NonEmptyString.optional(),
  header_format: z
    .string()
    .refine((f) => f.includes('{key}'), { error: 'must contain the placeholder {key}' })
    .optional(),
  oauth: OAuthConfig.optional(),
  token: SecretRef.optional(),
};

/** Keys of `authShape` that each select an authentication method. */
export const AUTH_METHOD_KEYS = ['api_key', 'oauth', 'token'] as const;
