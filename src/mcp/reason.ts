/**
 * The reason a failure gives, for logs and error results, without the MCP SDK: hooks, flows and
 * the gateway describe their own failures before any connection loads it.
 */
import { networkCodeOf, safeReason } from '../resilience/index.js';

/** The error's message (with its network code, if any), capped and without the credentials `redactText` removes. */
export function failureReason(
  error: unknown,
  redactText: (text: string) => string = (text) => text,
): string {
  if (!(error instanceof Error)) return safeReason(String(error), redactText);
  const code = networkCodeOf(error);
  const text = code && !error.message.includes(code) ? `${error.message} (${code})` : error.message;
  return safeReason(text, redactText);
}
