/**
 * Setup of the unit tier: a unit test runs in process only. One that opens a server socket,
 * connects anywhere (loopback included) or starts a child process fails, even when the code
 * under test catches the error. Such a test belongs in test/integration, or in test/e2e when it
 * runs the CLI. Waits go through the global timers, so that `vi.useFakeTimers()` reaches them.
 */
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import timersPromises from 'node:timers/promises';
import { afterEach, vi } from 'vitest';

/** A unit test reached for the network or a child process. */
class UnitTierIoError extends Error {
  override readonly name = 'UnitTierIoError';
}

const attempts: string[] = [];

function refuse(what: string): never {
  const message = `a unit test may not ${what}; move it to test/integration (test/e2e if it runs the CLI)`;
  attempts.push(message);
  throw new UnitTierIoError(message);
}

net.Server.prototype.listen = function listen(): never {
  refuse('listen on a socket');
};
net.Socket.prototype.connect = function connect(): never {
  refuse('open a connection');
};
const processStarters = [
  'spawn',
  'spawnSync',
  'fork',
  'exec',
  'execSync',
  'execFile',
  'execFileSync',
] as const;
for (const name of processStarters) {
  Object.assign(childProcess, { [name]: () => refuse(`start a child process (${name})`) });
}

/** What node:timers/promises rejects with when the signal aborts the wait. */
function abortError(signal: AbortSignal): Error {
  return Object.assign(new Error('The operation was aborted', { cause: signal.reason }), {
    name: 'AbortError',
    code: 'ABORT_ERR',
  });
}

// Backoff in src sleeps with `setTimeout` of node:timers/promises, which vitest's fake timers
// leave alone; on the global setTimeout, fake time passes for it too.
Object.assign(timersPromises, {
  setTimeout<T>(delay?: number, value?: T, options: { signal?: AbortSignal } = {}): Promise<T> {
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(abortError(signal));
    return new Promise<T>((resolve, reject) => {
      const aborted = () => {
        clearTimeout(timer);
        if (signal) reject(abortError(signal));
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', aborted);
        resolve(value as T);
      }, delay);
      signal?.addEventListener('abort', aborted, { once: true });
    });
  },
});

// ESM named imports of these built-in modules read the patched functions too.
syncBuiltinESMExports();

afterEach(() => {
  // Fake time ends with the test that started it.
  vi.useRealTimers();
  const found = attempts.splice(0);
  if (found.length > 0) throw new UnitTierIoError(found.join('\n'));
});
