import { randomUUID } from 'node:crypto';
import { link, mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as z from 'zod';
import { SwitchboardError } from '../../resilience/index.js';

/** The file in a state folder that names the process using it. */
export const LOCK_FILE = 'switchboard.lock';

/** What a lock file holds. */
const LockHolder = z.object({ pid: z.number().int().positive(), since: z.string() });
type LockHolder = z.infer<typeof LockHolder>;

/** A state folder held by this process; `release` when the stack stops. */
export interface StateLock {
  readonly file: string;
  release(): Promise<void>;
}

/** Another process (still running) uses the state folder. Code `STATE_FOLDER_IN_USE`. */
export class StateFolderInUseError extends SwitchboardError {
  override readonly name = 'StateFolderInUseError';
  override readonly code = 'STATE_FOLDER_IN_USE';
  constructor(
    readonly dir: string,
    readonly pid: number,
    readonly file: string,
  ) {
    super(
      `the state folder ${dir} is in use by process ${pid}${pid === process.pid ? ' (this process)' : ''}: stop that process or choose another --state folder (if no such process runs, remove ${file})`,
    );
  }
}

/**
 * Takes the state folder for this process: one `switchboard run` at a time may keep its
 * conversations there, since the emulator's database is opened by one process only. A lock left
 * by a process that is gone (a crash, `kill -9`) is taken over.
 */
export async function lockStateFolder(dir: string): Promise<StateLock> {
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, LOCK_FILE);
  const mine: LockHolder = { pid: process.pid, since: new Date().toISOString() };
  // Two tries: the second after taking over a stale lock.
  for (let attempt = 0; attempt < 2; attempt += 1) {
    if (await createExclusive(file, mine)) return heldLock(file);
    const holder = await readHolder(file);
    if (holder && isRunning(holder.pid)) throw new StateFolderInUseError(dir, holder.pid, file);
    await takeOver(file, holder);
  }
  const holder = await readHolder(file);
  throw new StateFolderInUseError(dir, holder?.pid ?? 0, file);
}

/** Writes the lock whole under a temporary name, then links it in: it exists complete or not. */
async function createExclusive(file: string, holder: LockHolder): Promise<boolean> {
  const temporary = `${file}.${randomUUID()}`;
  await writeFile(temporary, JSON.stringify(holder));
  try {
    await link(temporary, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await unlink(temporary).catch(() => undefined);
  }
}

/** The holder a lock file names; undefined when it is gone or unreadable (a stale lock). */
async function readHolder(file: string): Promise<LockHolder | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const parsed = LockHolder.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Moves a stale lock aside. Two processes may take over the same stale lock at once: the one
 * that moved a lock other than the stale one it read puts it back, and the next try finds it.
 */
async function takeOver(file: string, stale: LockHolder | undefined): Promise<void> {
  const aside = `${file}.stale.${randomUUID()}`;
  try {
    await rename(file, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  const moved = await readHolder(aside);
  if (moved && (moved.pid !== stale?.pid || moved.since !== stale.since)) {
    await link(aside, file).catch(() => undefined);
  }
  await unlink(aside).catch(() => undefined);
}

function heldLock(file: string): StateLock {
  return {
    file,
    release: async () => {
      const holder = await readHolder(file);
      if (holder?.pid === process.pid) await unlink(file).catch(() => undefined);
    },
  };
}

/** Whether a process runs with this id (one of another user counts: it answers EPERM). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
