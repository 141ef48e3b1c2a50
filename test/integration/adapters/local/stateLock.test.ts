import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  LOCK_FILE,
  lockStateFolder,
  StateFolderInUseError,
} from '../../../../src/adapters/local/stateLock.js';
import { tempDir } from '../../../helpers/tempDirs.js';

/** The id of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('exit', resolve));
  if (child.pid === undefined) throw new Error('the child did not start');
  return child.pid;
}

describe('lockStateFolder', () => {
  it('refuses a folder in use, naming the process that holds it', async () => {
    const dir = await tempDir('switchboard-state-');
    const lock = await lockStateFolder(dir);
    try {
      const second = lockStateFolder(dir);
      await expect(second).rejects.toBeInstanceOf(StateFolderInUseError);
      await expect(second).rejects.toMatchObject({
        pid: process.pid,
        message: expect.stringContaining(
          `the state folder ${dir} is in use by process ${process.pid}`,
        ),
      });
    } finally {
      await lock.release();
    }
  });

  it('takes the folder again once the holder released it', async () => {
    const dir = await tempDir('switchboard-state-');
    await (await lockStateFolder(dir)).release();
    const again = await lockStateFolder(dir);
    await again.release();
  });

  it('takes over a lock left by a process that is gone', async () => {
    const dir = await tempDir('switchboard-state-');
    const file = path.join(dir, LOCK_FILE);
    await writeFile(file, JSON.stringify({ pid: await deadPid(), since: '2020-01-01T00:00:00Z' }));
    const lock = await lockStateFolder(dir);
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ pid: process.pid });
    await lock.release();
  });

  it('takes over a lock file it cannot read', async () => {
    const dir = await tempDir('switchboard-state-');
    await writeFile(path.join(dir, LOCK_FILE), '');
    const lock = await lockStateFolder(dir);
    await lock.release();
  });

  it('leaves a lock alone that another process took after this one', async () => {
    const dir = await tempDir('switchboard-state-');
    const file = path.join(dir, LOCK_FILE);
    const lock = await lockStateFolder(dir);
    const other = JSON.stringify({ pid: process.ppid, since: '2030-01-01T00:00:00Z' });
    await writeFile(file, other);
    await lock.release();
    expect(await readFile(file, 'utf8')).toBe(other);
  });
});
