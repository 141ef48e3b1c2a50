import { randomBytes } from 'node:crypto';
import { type LocalStack, type LocalStackOptions, startLocalStack } from '../local/index.js';
import type { StartedPeers } from './peers.js';

/** How long a turn may take before a command stops waiting for it (the webhook's maximum). */
export const TURN_WAIT_MS = 120_000;

/**
 * A local stack that only the command starting it talks to (`test`, `shell`): an ephemeral port,
 * a REST token of its own, and a webhook that answers once the turn settles. When it cannot start,
 * the command's peers are stopped.
 */
export async function startPrivateStack(
  options: Omit<LocalStackOptions, 'port' | 'replyWaitMs'>,
  peers: StartedPeers,
): Promise<{ readonly stack: LocalStack; readonly token: string }> {
  const token = randomBytes(24).toString('hex');
  try {
    const stack = await startLocalStack({
      ...options,
      port: 0,
      env: { ...options.env, SWITCHBOARD_REST_TOKEN: token },
      replyWaitMs: TURN_WAIT_MS,
    });
    return { stack, token };
  } catch (error) {
    await peers.close();
    throw error;
  }
}
