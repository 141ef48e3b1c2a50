import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { scanConversationIds } from '../../../src/adapters/aws/scanConversations.js';
import { type AgentRunner, processJob, recoverPendingWork } from '../../../src/runtime/index.js';
import { NEVER, runtimeSuite, userMessage } from '../../helpers/runtime.js';

const FILES = {
  'endpoints.yml': 'mcp_servers:\n  - name: tools\n    url: http://127.0.0.1:9000/mcp\n',
  'domain.yml': 'slots: {}\nresponses:\n  utter_ok:\n    - text: OK.\n',
  'data/flows.yml':
    'flows:\n  research:\n    description: Research.\n    steps:\n      - call: researcher\n',
  'sub_agents/researcher/config.yml':
    'agent:\n  name: researcher\n  description: Researches.\nconnections:\n  mcp_servers:\n    - name: tools\n',
};

const doneRunner: AgentRunner<object> = {
  dataSchema: z.object({}),
  start: () => ({}),
  step: async (data) => ({
    data,
    next: { type: 'done', output: { id: 'r', status: 'completed', responseMessage: 'Finished.' } },
  }),
};

const suite = runtimeSuite(FILES);

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
});
