import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { scanConversationIds } from '../../../src/adapters/aws/scanConversations.js';
import {
  type AgentRunner,
  type Job,
  processJob,
  recoverPendingWork,
} from '../../../src/runtime/index.js';
import { RESEARCHER_PROJECT } from '../../helpers/project.js';
import {
  NEVER,
  rewriteHead,
  runtimeSuite,
  storeWith,
  type TestRuntime,
  userMessage,
} from '../../helpers/runtime.js';

const FILES = RESEARCHER_PROJECT;

const doneRunner: AgentRunner<object> = {
  dataSchema: z.object({}),
  start: () => ({}),
  step: async (data) => ({
    data,
    next: { type: 'done', output: { id: 'r', status: 'completed', responseMessage: 'Finished.' } },
  }),
};

const suite = runtimeSuite(FILES);

/** The runtime's dependencies with a queue that records what it is given. */
function recordingQueue(rt: TestRuntime) {
  const enqueued: Job[][] = [];
  const deps = {
    ...rt.deps,
    queue: {
      enqueue: async (jobs: readonly Job[]) => {
        enqueued.push([...jobs]);
        await rt.queue.enqueue(jobs);
      },
    },
  };
  return { deps, enqueued };
}

describe('recovering after a restart', () => {
  it('queues the next step of every run in progress again, and the run finishes', async () => {
    const rt = await suite.runtime({
      runners: { runnerFor: () => doneRunner },
    });
    rt.llm.reply('start flow research');
    const job = userMessage('restarted', 'research');
    await processJob(job, rt.deps, NEVER);
    // The queued step is lost with the old process's in-memory queue.
    const fresh = await suite.runtime({
      runners: { runnerFor: () => doneRunner },
    });
    const ids = await scanConversationIds(suite.emulators.documents, suite.emulators.tableName);
    expect(ids).toContain('restarted');
    expect(await recoverPendingWork(fresh.deps, ['restarted'])).toBe(1);
    await fresh.drain(
      async () => ((await fresh.store.load('restarted'))?.state.stack.length ?? 1) === 0,
    );
    // The run's later messages still belong to the turn that started it.
    const replies = await fresh.replies.read('restarted', job.turn_id);
    expect(replies.messages.map((m) => m.message.text)).toEqual([
      'Finished.',
      'Can I help you with anything else?',
    ]);
    expect(replies.settled).toBe(true);
    const tracker = await fresh.store.readEvents('restarted');
    expect(tracker.map((e) => e.event.event)).toContain('agent_completed');
  });

  it('delivers an outbox a crash left behind', async () => {
    const rt = await suite.runtime();
    rt.llm.reply('offtopic reply');
    const job = userMessage('left-behind', 'hello');
    const crashing = {
      ...rt.deps,
      output: {
        deliver: async () => {
          throw new Error('killed');
        },
      },
    };
    await expect(processJob(job, crashing, NEVER)).rejects.toThrow('killed');
    await recoverPendingWork(rt.deps, ['left-behind']);
    expect((await rt.store.load('left-behind'))?.outbox).toBeUndefined();
    expect((await rt.replies.read('left-behind', job.turn_id)).messages).toHaveLength(1);
  });

  it('passes over a conversation id it does not know, and queues nothing for it', async () => {
    const rt = await suite.runtime();
    const { deps, enqueued } = recordingQueue(rt);
    expect(await recoverPendingWork(deps, ['never-seen'])).toBe(0);
    expect(enqueued).toEqual([]);
  });

  it('queues nothing for a conversation with no run in progress', async () => {
    const rt = await suite.runtime();
    rt.llm.reply('offtopic reply');
    await processJob(userMessage('idle', 'hello'), rt.deps, NEVER);
    const { deps, enqueued } = recordingQueue(rt);
    expect(await recoverPendingWork(deps, ['idle'])).toBe(0);
    expect(enqueued).toEqual([]);
  });

  it('passes over runs whose record is gone or unreadable and resumes the others', async () => {
    const rt = await suite.runtime({ runners: { runnerFor: () => doneRunner } });
    rt.llm.reply('start flow research');
    await processJob(userMessage('mixed', 'research'), rt.deps, NEVER);
    await rewriteHead(
      rt.store,
      'mixed',
      (head) => ({ runs: { ...head.runs, 'run-gone': 'job-g', 'run-bad': 'job-b' } }),
      [{ runId: 'run-bad', jobId: 'job-b', agentId: 'researcher', data: { version: 99 } }],
    );
    const { deps, enqueued } = recordingQueue(rt);
    expect(await recoverPendingWork(deps, ['mixed'])).toBe(1);
    expect(enqueued).toHaveLength(1);
    expect(enqueued[0]?.map((j) => [j.type, 'step' in j ? j.step : undefined])).toEqual([
      ['agent_step', 0],
    ]);
  });

  it('lets a store failure other than an unreadable record through', async () => {
    const rt = await suite.runtime({ runners: { runnerFor: () => doneRunner } });
    rt.llm.reply('start flow research');
    await processJob(userMessage('throttled', 'research'), rt.deps, NEVER);
    const store = storeWith(rt.store, {
      loadRun: async () => {
        throw new Error('throttled');
      },
    });
    await expect(recoverPendingWork({ ...rt.deps, store }, ['throttled'])).rejects.toThrow(
      'throttled',
    );
  });
});
