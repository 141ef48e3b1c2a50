import { z } from 'zod';

const optionalText = z
  .string()
  .optional()
  .transform((value) => (value === '' ? undefined : value));

/** The settings the stateless stack gives every function, read from its environment. */
export const FunctionEnv = z.object({
  TABLE_NAME: z.string().min(1),
  JOBS_QUEUE_URL: z.string().min(1),
  DELAY_QUEUE_URL: z.string().min(1),
  /** Prepended to secret names: `switchboard/` reads `OPENAI_API_KEY` as `switchboard/OPENAI_API_KEY`. */
  SECRET_PREFIX: z.string().default(''),
  CONVERSATION_TTL_DAYS: z.coerce.number().int().positive().default(30),
  /** The full name of the secret holding the REST channel's bearer token; unset: no token. */
  REST_TOKEN_SECRET: optionalText,
  /** How long the REST webhook waits for a turn to settle (API Gateway gives up at 30 s). */
  REPLY_WAIT_MS: z.coerce.number().int().min(0).max(25_000).default(20_000),
});
export type FunctionEnv = z.infer<typeof FunctionEnv>;

/** A function was deployed without the settings it needs. */
export class FunctionConfigError extends Error {
  override readonly name = 'FunctionConfigError';
}

/** Reads and checks the function's environment; a missing or invalid setting is named. */
export function readFunctionEnv(env: Readonly<Record<string, string | undefined>>): FunctionEnv {
  const result = FunctionEnv.safeParse(env);
  if (result.success) return result.data;
  throw new FunctionConfigError(
    `invalid function environment: ${z.prettifyError(result.error).replaceAll('\n', '; ')}`,
  );
}
