import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PUSH_KEY_SECRET } from '../../a2a/index.js';
import type { SecretStore } from '../../runtime/index.js';
import { SecretNotFoundError } from '../secretErrors.js';

/**
 * The local stack's key for A2A push tokens: the `SWITCHBOARD_A2A_PUSH_KEY` secret when one is
 * set; otherwise a key of its own, kept in the data folder (so tasks registered before a restart
 * still reach their runs) or, without one, for the life of the process.
 */
export function localPushKey(secrets: SecretStore, dataDir?: string): () => Promise<string> {
  let key: Promise<string> | undefined;
  return () => {
    key ??= (async () => {
      try {
        return await secrets.get(PUSH_KEY_SECRET);
      } catch (error) {
        if (!(error instanceof SecretNotFoundError)) throw error;
      }
      if (!dataDir) return randomBytes(32).toString('hex');
      const file = path.resolve(dataDir, 'a2a-push.key');
      try {
        return (await readFile(file, 'utf8')).trim();
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
      const created = randomBytes(32).toString('hex');
      await mkdir(dataDir, { recursive: true });
      await writeFile(file, created, { mode: 0o600 });
      return created;
    })();
    return key;
  };
}
