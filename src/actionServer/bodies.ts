import { safeReason } from '../resilience/index.js';
import { RejectionAnswer } from './answer.js';
import { ActionServerError } from './errors.js';

/**
 * The reason of a 400 answer: `error` of `{error, action_name}`, or a plain refusal; without the
 * credentials `redactText` removes, and short.
 */
export async function rejectionOf(
  response: Response,
  limit: number,
  redactText: (text: string) => string,
): Promise<string> {
  let text = '';
  try {
    text = await readLimited(response, limit);
  } catch {
    // No reason could be read: the refusal stands without one.
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const parsed = RejectionAnswer.safeParse(json);
  const reason = parsed.success ? parsed.data.error : undefined;
  if (!reason) return 'the action server refused to run it (HTTP 400)';
  return safeReason(reason, redactText);
}

/** The body as text, refused when it is longer than `limit` bytes. */
export async function readLimited(response: Response, limit: number): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw new ActionServerError(`answered with more than ${limit} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
