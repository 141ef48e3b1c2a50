import { getEventListeners } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import type { Job } from '../../../src/runtime/index.js';
import { runWorkerLoop } from '../../../src/runtime/index.js';
import { SILENT_LOGGER } from '../../helpers/logger.js';

function job(conversation: string, n: number): Job {
  const id = `${conversation}-${n}`;
  return {
    type: 'user_message',
    id,
    conversation_id: conversation,
    turn_id: id,
    text: id,
    channel: 'rest',
  };
}

const logger = SILENT_LOGGER;

describe('runWorkerLoop as a pool of slots', () => {
  it('takes a new job as soon as a slot frees while another job hangs', async () => {
    const stop = new AbortController();
    const hardStop = new AbortController();
    // One job a receive: a job that never ends, then the jobs of another conversation.
    const queue = [job('hung', 1), job('b', 1), job('b', 2), job('b', 3)];
    const done: string[] = [];
    const loop = runWorkerLoop({
      source: {
        receive: async () => {
          const next = queue.shift();
          if (next) return [{ job: next, handle: next.id, receiveCount: 1 }];
          stop.abort();
          return [];
        },
        complete: async (handle) => {
          done.push(handle);
        },
        retry: async () => {},
      },
      logger,
      concurrency: 2,
      signal: stop.signal,
      jobSignal: hardStop.signal,
      isRetryable: () => false,
      process: (j, signal) =>
        j.conversation_id === 'hung'
          ? new Promise((_, reject) =>
              signal.addEventListener('abort', () => reject(signal.reason)),
            )
          : Promise.resolve(),
    });
    await vi.waitFor(() => expect(stop.signal.aborted).toBe(true));
    expect(done).toEqual(['b-1', 'b-2', 'b-3']);
    hardStop.abort(new Error('stopping'));
    await loop;
    expect(done).not.toContain('hung-1');
  });

  it('lets jobs in progress go on while a source answers nothing at once', async () => {
    const stop = new AbortController();
    let served = false;
    let empty = 0;
    const done: string[] = [];
    await runWorkerLoop({
      source: {
        receive: async () => {
          if (served) {
            // Before the loop yielded, this spun on promises alone and the job's timer never fired.
            empty += 1;
            if (empty === 10_000) stop.abort();
            return [];
          }
          served = true;
          return [{ job: job('a', 1), handle: 'a-1', receiveCount: 1 }];
        },
        complete: async (handle) => {
          done.push(handle);
          stop.abort();
        },
        retry: async () => {},
      },
      logger,
      signal: stop.signal,
      isRetryable: () => false,
      // A job that needs the event loop (a timer, as I/O would), not only promises.
      process: () => new Promise((resolve) => setTimeout(resolve, 1)),
    });
    expect(done).toEqual(['a-1']);
    // The job ended while the loop was still receiving, not once it gave up.
    expect(empty).toBeLessThan(10_000);
  });

  it('never runs more jobs at once than its concurrency', async () => {
    const stop = new AbortController();
    const queue = Array.from({ length: 12 }, (_, n) => job(`c${n}`, 1));
    let running = 0;
    let most = 0;
    await runWorkerLoop({
      source: {
        receive: async (max) => {
          const taken = queue.splice(0, max);
          if (taken.length === 0) stop.abort();
          return taken.map((j) => ({ job: j, handle: j.id, receiveCount: 1 }));
        },
        complete: async () => {},
        retry: async () => {},
      },
      logger,
      concurrency: 3,
      signal: stop.signal,
      isRetryable: () => false,
      process: async () => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((r) => setTimeout(r, 2));
        running -= 1;
      },
    });
    expect(most).toBe(3);
  });

  it('runs a job after the job of its conversation in progress, when a later receive brings it', async () => {
    const stop = new AbortController();
    const batches = [[job('a', 1)], [job('a', 2), job('b', 1)]];
    const order: string[] = [];
    let releaseFirst: () => void = () => {};
    await runWorkerLoop({
      source: {
        receive: async () => {
          const next = batches.shift();
          if (!next) {
            stop.abort();
            releaseFirst();
            return [];
          }
          return next.map((j) => ({ job: j, handle: j.id, receiveCount: 1 }));
        },
        complete: async () => {},
        retry: async () => {},
      },
      logger,
      signal: stop.signal,
      isRetryable: () => false,
      process: async (j) => {
        order.push(`start ${j.id}`);
        if (j.id === 'a-1') await new Promise<void>((r) => (releaseFirst = r));
        order.push(`end ${j.id}`);
      },
    });
    expect(order.indexOf('end a-1')).toBeLessThan(order.indexOf('start a-2'));
    expect(order.indexOf('end b-1')).toBeLessThan(order.indexOf('end a-1'));
  });

  it('aborts every job in progress on a hard stop through one listener on its signal', async () => {
    const stop = new AbortController();
    const hardStop = new AbortController();
    const queue = Array.from({ length: 20 }, (_, n) => job(`c${n}`, 1));
    const started: string[] = [];
    const aborted: string[] = [];
    const loop = runWorkerLoop({
      source: {
        receive: async (max) =>
          queue.splice(0, max).map((j) => ({ job: j, handle: j.id, receiveCount: 1 })),
        complete: async () => {},
        retry: async () => {},
      },
      logger,
      concurrency: 20,
      signal: stop.signal,
      jobSignal: hardStop.signal,
      isRetryable: () => false,
      process: (j, signal) => {
        started.push(j.id);
        return new Promise((_, reject) =>
          signal.addEventListener('abort', () => {
            aborted.push(j.id);
            reject(signal.reason);
          }),
        );
      },
    });
    await vi.waitFor(() => expect(started).toHaveLength(20));
    // More than ten listeners on one signal is what Node warns about (MaxListenersExceededWarning).
    expect(getEventListeners(hardStop.signal, 'abort')).toHaveLength(1);
    stop.abort();
    hardStop.abort(new Error('stopping'));
    await loop;
    expect(aborted).toHaveLength(20);
    expect(getEventListeners(hardStop.signal, 'abort')).toHaveLength(0);
  });
});
