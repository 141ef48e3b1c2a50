import { describe, expect, it } from 'vitest';
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

const logger = { info: () => {}, warn: () => {}, error: () => {} };

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
        await new Promise((r) => setTimeout(r, 5));
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
        await new Promise((r) => setTimeout(r, 20));
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
});
