import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { timeoutSignal } from '../../../src/signals/index.js';

// On Node's own timers: what broke was a timer collected before it fired, which fake timers
// cannot show.

/** The garbage collector, callable from a test. */
function collector(): () => void {
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}

/** Whether the signal aborts within `ms` (the reason's name), collecting garbage meanwhile. */
async function abortsWithin(signal: AbortSignal, ms: number): Promise<string | undefined> {
  const gc = collector();
  const collecting = setInterval(gc, 10);
  try {
    return await new Promise((resolve) => {
      const give = setTimeout(() => resolve(undefined), ms);
      signal.addEventListener('abort', () => {
        clearTimeout(give);
        resolve((signal.reason as Error).name);
      });
    });
  } finally {
    clearInterval(collecting);
  }
}

describe('timeoutSignal', () => {
  it('times out while garbage is collected, combined with a job signal nothing aborts', async () => {
    const job = new AbortController();
    expect(await abortsWithin(timeoutSignal(50, job.signal), 5000)).toBe('TimeoutError');
  });

  it('aborts with the job signal first when the job stops', async () => {
    const job = new AbortController();
    const signal = timeoutSignal(60_000, job.signal);
    job.abort(new Error('stopping'));
    expect(signal.aborted).toBe(true);
    expect((signal.reason as Error).message).toBe('stopping');
  });

  it('is a plain timeout without other signals', async () => {
    expect(await abortsWithin(timeoutSignal(20), 5000)).toBe('TimeoutError');
  });
});
