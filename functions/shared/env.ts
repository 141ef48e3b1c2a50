import { en } from 'zod/locales';
import * as z from 'zod/mini';
import { SwitchboardError } from '../../src/resilience/index.js';

// zod's small build, which the HTTP handlers load alone, brings no messages of its own: they
// are English, as the full build's are, in logs and in the reasons of 400 answers.
z.config(en());

const optionalText = z.pipe(
  z.optional(z.string()),
  z.transform((value: string | undefined) => (value === '' ? undefined : value)),
);

/** The settings the stateless stack gives every function, read from its environment. */
export const FunctionEnv = z.object({
  TABLE_NAME: z.string().check(z.minLength(1)),
  JOBS_QUEUE_URL: z.string().check(z.minLength(1)),
  DELAY_QUEUE_URL: z.string().check(z.minLength(1)),
  /** Prepended to secret names: `switchboard/` reads `OPENAI_API_KEY` as `switchboard/OPENAI_API_KEY`. */
  SECRET_PREFIX: z._default(z.string(), ''),
  CONVERSATION_TTL_DAYS: z._default(z.coerce.number().check(z.int(), z.positive()), 30),
  /** The full name of the secret holding the REST channel's bearer token; unset: no token. */
  REST_TOKEN_SECRET: optionalText,
  /** The full name (or ARN) of the secret that signs A2A push tokens; unset: A2A tasks are polled. */
  A2A_PUSH_KEY_SECRET: optionalText,
  /** The API's base URL, under which the worker registers A2A push URLs (`<url>a2a/push/…`). */
  A2A_PUSH_BASE_URL: optionalText,
  /**
   * The messaging channels of the project's credentials.yml, as JSON (their secrets as names
   * under the prefix); unset: the REST channel alone.
   */
  CHANNELS: optionalText,
  /** How long one web chat stream goes on (within the web chat function's timeout). */
  STREAM_LIMIT_MS: z._default(
    z.coerce.number().check(z.int(), z.positive(), z.maximum(5 * 60_000)),
    4 * 60_000,
  ),
  /** How long the REST webhook waits for a turn to settle (API Gateway gives up at 30 s). */
  REPLY_WAIT_MS: z._default(
    z.coerce.number().check(z.int(), z.nonnegative(), z.maximum(25_000)),
    20_000,
  ),
});
export type FunctionEnv = z.infer<typeof FunctionEnv>;

/** A function was deployed without the settings it needs. Code `FUNCTION_CONFIG_INVALID`. */
export class FunctionConfigError extends SwitchboardError {
  override readonly name = 'FunctionConfigError';
  override readonly code = 'FUNCTION_CONFIG_INVALID';
}

/** Reads and checks the function's environment; a missing or invalid setting is named. */
export function readFunctionEnv(env: Readonly<Record<string, string | undefined>>): FunctionEnv {
  const result = FunctionEnv.safeParse(env);
  if (result.success) return result.data;
  throw new FunctionConfigError(
    `invalid function environment: ${z.prettifyError(result.error).replaceAll('\n', '; ')}`,
  );
}
