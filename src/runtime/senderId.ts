/**
 * Sender ids name conversations: the REST body's `sender` and every `{sender}` path parameter
 * follow the same rule, so an id that could not be stored is refused before any store sees it.
 */
export const SENDER_ID_CHARS = 128;

const SENDER_ID = /^[\w.:@+-]+$/;

/** Why `value` is not a sender id (to follow "sender" or "the sender id"), or undefined. */
export function senderIdProblem(value: string): string | undefined {
  if (value.length === 0) return 'must not be empty';
  if (value.length > SENDER_ID_CHARS) return `must be at most ${SENDER_ID_CHARS} characters`;
  if (!SENDER_ID.test(value)) return 'may contain letters, digits and . _ : @ + - only';
  return undefined;
}
