/**
 * The credentials callers give for their push notifications (a token, an `Authorization`
 * credential) are kept sealed: AES-256-GCM under a key derived from the deployment's push key,
 * so that no credential is written to the table in the clear.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import * as z from 'zod/mini';
import { SwitchboardError } from '../resilience/index.js';

/** A sealed value could not be opened (another key, or altered). Code `A2A_SEAL_BROKEN`. */
export class SealBrokenError extends SwitchboardError {
  override readonly name = 'SealBrokenError';
  override readonly code = 'A2A_SEAL_BROKEN';
}

export const PushSecrets = z.object({
  token: z.optional(z.string()),
  credentials: z.optional(z.string()),
});
export type PushSecrets = z.infer<typeof PushSecrets>;

function keyOf(pushKey: string): Buffer {
  return createHash('sha256').update(`a2a-server-push-credentials\n${pushKey}`).digest();
}

export function seal(pushKey: string, secrets: PushSecrets): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(pushKey), iv);
  const text = Buffer.concat([cipher.update(JSON.stringify(secrets), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), text]).toString('base64url');
}

export function unseal(pushKey: string, sealed: string): PushSecrets {
  try {
    const data = Buffer.from(sealed, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', keyOf(pushKey), data.subarray(0, 12));
    decipher.setAuthTag(data.subarray(12, 28));
    const text = Buffer.concat([decipher.update(data.subarray(28)), decipher.final()]);
    return PushSecrets.parse(JSON.parse(text.toString('utf8')));
  } catch (error) {
    throw new SealBrokenError('the push credentials of a task cannot be opened with this key', {
      cause: error,
    });
  }
}
