import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Job, JobSource, ReceivedJob } from '../../../src/runtime/index.js';
import { runWorkerLoop } from '../../../src/runtime/index.js';

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

/** A source that hands out one batch, then nothing, and records what happened to each job. */
function oneBatch(jobs: Job[], stop: AbortController) {
  const log: string[] = [];
  let served = false;
  const source: JobSource = {
    receive: async () => {
      if (served) {
        stop.abort();
        return [];
      }
      served = true;
      return jobs.map((j): ReceivedJob => ({ job: j, handle: j.id, receiveCount: 1 }));
    },
    complete: async (handle) => {
      log.push(`done ${handle}`);
    },
    retry: async (handle) => {
      log.push(`retry ${handle}`);
    },
  };
  return { source, log };
}

/** A turn of the event loop: by then the loop has started every job it runs alongside. */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

const logger = { info: () => {}, warn: () => {}, error: () => {} };

/** A logger that records each line with its fields. */
function recordingLogger() {
  const lines: string[] = [];
  const line = (level: string) => (message: string, fields?: Record<string, unknown>) => {
    lines.push(`${level} ${message} ${JSON.stringify(fields ?? {})}`);
  };
  return { lines, logger: { info: line('info'), warn: line('warn'), error: line('error') } };
}

describe('runWorkerLoop', () => {
  it('runs the jobs of one conversation one after another, and other conversations alongside', async () => {
    const stop = new AbortController();
    const { source, log } = oneBatch([job('a', 1), job('b', 1), job('a', 2)], stop);
    const running = new Set<string>();
    const overlaps: string[] = [];
    await runWorkerLoop({
      source,
      logger,
      signal: stop.signal,
      isRetryable: () => false,
      process: async (j) => {
        for (const other of running)
          if (other.startsWith(j.conversation_id)) overlaps.push(`${other}+${j.id}`);
        running.add(j.id);
        await nextTurn();
        running.delete(j.id);
      },
    });
    expect(overlaps).toEqual([]);
    expect(log.filter((l) => l.startsWith('done a'))).toEqual(['done a-1', 'done a-2']);
    expect(log).toContain('done b-1');
  });

  it('holds back the later jobs of a conversation whose job failed', async () => {
    const stop = new AbortController();
    const { source, log } = oneBatch([job('a', 1), job('a', 2), job('b', 1)], stop);
    await runWorkerLoop({
      source,
      logger,
      signal: stop.signal,
      isRetryable: () => false,
      process: async (j) => {
        if (j.id === 'a-1') throw new Error('boom');
      },
    });
    // a-2 is left alone: it comes back after a-1, in order.
    expect(log.sort()).toEqual(['done b-1']);
  });

  it('runs different conversations at the same time', async () => {
    const stop = new AbortController();
    const { source } = oneBatch([job('a', 1), job('b', 1), job('c', 1)], stop);
    let running = 0;
    let most = 0;
    await runWorkerLoop({
      source,
      logger,
      signal: stop.signal,
      isRetryable: () => false,
      process: async () => {
        running += 1;
        most = Math.max(most, running);
        await nextTurn();
        running -= 1;
      },
    });
    expect(most).toBe(3);
  });

  it('releases a job that lost a race for a retry and holds back the later jobs of its conversation', async () => {
    const stop = new AbortController();
    const { source, log } = oneBatch([job('a', 1), job('a', 2), job('b', 1)], stop);
    const ran: string[] = [];
    await runWorkerLoop({
      source,
      logger,
      signal: stop.signal,
      isRetryable: () => true,
      process: async (j) => {
        ran.push(j.id);
        if (j.id === 'a-1') throw new Error('another job committed first');
      },
    });
    expect(ran.sort()).toEqual(['a-1', 'b-1']);
    expect(log.sort()).toEqual(['done b-1', 'retry a-1']);
  });

  it('takes ten jobs per receive unless told otherwise', async () => {
    const asked: number[] = [];
    for (const batch of [undefined, 3]) {
      const stop = new AbortController();
      await runWorkerLoop({
        source: {
          receive: async (max) => {
            asked.push(max);
            stop.abort();
            return [];
          },
          complete: async () => {},
          retry: async () => {},
        },
        logger,
        signal: stop.signal,
        isRetryable: () => false,
        process: async () => {},
        ...(batch === undefined ? {} : { batch }),
      });
    }
    expect(asked).toEqual([10, 3]);
  });

  it('logs which job lost a race, and which failed with its error and receive count', async () => {
    const stop = new AbortController();
    const { source } = oneBatch([job('a', 1), job('b', 1), job('c', 1)], stop);
    const { lines, logger: recording } = recordingLogger();
    await runWorkerLoop({
      source,
      logger: recording,
      signal: stop.signal,
      isRetryable: (error) => error === 'race',
      process: async (j) => {
        if (j.id === 'a-1') throw 'race';
        if (j.id === 'b-1') throw new TypeError('bad input');
        if (j.id === 'c-1') throw 'plain text';
      },
    });
    expect(lines.sort()).toEqual([
      'error job failed; the queue will deliver it again {"jobId":"b-1","jobType":"user_message","conversationId":"b","receiveCount":1,"error":"TypeError: bad input"}',
      'error job failed; the queue will deliver it again {"jobId":"c-1","jobType":"user_message","conversationId":"c","receiveCount":1,"error":"plain text"}',
      'info job lost a race and runs again {"jobId":"a-1","jobType":"user_message","conversationId":"a"}',
    ]);
  });

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

  describe('when receiving fails', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it('logs the failure and receives again after a second', async () => {
      vi.useFakeTimers();
      const stop = new AbortController();
      const { lines, logger: recording } = recordingLogger();
      let receives = 0;
      const ran: string[] = [];
      const loop = runWorkerLoop({
        source: {
          receive: async () => {
            receives += 1;
            if (receives === 1) throw new Error('throttled');
            if (receives === 2) return [{ job: job('a', 1), handle: 'a-1', receiveCount: 1 }];
            stop.abort();
            return [];
          },
          complete: async () => {},
          retry: async () => {},
        },
        logger: recording,
        signal: stop.signal,
        isRetryable: () => false,
        process: async (j) => {
          ran.push(j.id);
        },
      });
      await vi.advanceTimersByTimeAsync(999);
      expect(receives).toBe(1);
      expect(lines).toEqual(['error receiving jobs failed {"error":"Error: throttled"}']);
      await vi.advanceTimersByTimeAsync(1);
      await loop;
      expect(receives).toBe(3);
      expect(ran).toEqual(['a-1']);
    });

    it('stops at once when told to stop while it waits', async () => {
      vi.useFakeTimers();
      const stop = new AbortController();
      let receives = 0;
      const loop = runWorkerLoop({
        source: {
          receive: async () => {
            receives += 1;
            throw new Error('unreachable');
          },
          complete: async () => {},
          retry: async () => {},
        },
        logger,
        signal: stop.signal,
        isRetryable: () => false,
        process: async () => {},
      });
      await vi.advanceTimersByTimeAsync(10);
      stop.abort();
      await loop;
      expect(receives).toBe(1);
      expect(vi.getTimerCount()).toBe(0);
    });

    it('logs nothing when the receive failed because the loop was told to stop', async () => {
      const stop = new AbortController();
      const { lines, logger: recording } = recordingLogger();
      await runWorkerLoop({
        source: {
          receive: async () => {
            stop.abort();
            throw new Error('aborted');
          },
          complete: async () => {},
          retry: async () => {},
        },
        logger: recording,
        signal: stop.signal,
        isRetryable: () => false,
        process: async () => {},
      });
      expect(lines).toEqual([]);
    });
  });
});
