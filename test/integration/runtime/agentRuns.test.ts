import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTracker } from '../../../src/channels/tracker.js';
import type { Assistant } from '../../../src/config/index.js';
import type { AgentRunner, Job, StepResult } from '../../../src/runtime/index.js';
import { assistantFrom } from '../../helpers/dialogue.js';
import { type Emulators, startEmulators } from '../../helpers/emulators.js';
import { testRuntime, userMessage } from '../../helpers/runtime.js';

const FILES = {
  'endpoints.yml': 'mcp_servers:\n  - name: tools\n    url: http://127.0.0.1:9000/mcp\n',
  'domain.yml':
    'slots:\n  finding:\n    type: text\nresponses:\n  utter_found:\n    - text: Noted {finding}.\n',
  'data/flows.yml': `flows:
  research:
    description: Research something.
    steps:
      - call: researcher
      - action: utter_found
`,
  'sub_agents/researcher/config.yml':
    'agent:\n  name: researcher\n  description: Researches.\nconnections:\n  mcp_servers:\n    - name: tools\n',
};

interface CountingData {
  readonly remaining: number;
  readonly failuresLeft: number;
}

/** A runner that works for a few steps (one of them delayed), then completes. */
function countingRunner(
  steps: number,
  failures = 0,
  alwaysFail = false,
): AgentRunner & { calls: number } {
  const runner = {
    calls: 0,
    start: (): CountingData => ({ remaining: steps, failuresLeft: failures }),
    step: async (raw: unknown): Promise<StepResult> => {
      runner.calls += 1;
      const data = raw as CountingData;
      if (alwaysFail || data.failuresLeft > 0) throw new Error('tool server unreachable');
      if (data.remaining > 1) {
        return {
          data: { ...data, remaining: data.remaining - 1 },
          messages: [{ text: `working (${data.remaining - 1} left)` }],
          next: { type: 'continue', ...(data.remaining === 2 ? { delayMs: 5 } : {}) },
        };
      }
      return {
        data,
        next: {
          type: 'done',
          output: {
            id: 'run',
            status: 'completed',
            responseMessage: 'Research done.',
            events: [{ event: 'slot', name: 'finding', value: 'EVs are cheaper to run' }],
          },
        },
      };
    },
  };
  return runner;
}

let emulators: Emulators;
let assistant: Assistant;

beforeAll(async () => {
  emulators = await startEmulators({ visibilityTimeoutSeconds: 1 });
  assistant = await assistantFrom(FILES);
}, 30_000);

afterAll(async () => {
  await emulators?.close();
});

describe('durable agent runs', () => {
  it('run one step per job, send intermediate messages, and continue the flow when done', async () => {
    const runner = countingRunner(3);
    const rt = await testRuntime(emulators, assistant, { runners: { runnerFor: () => runner } });
    rt.llm.reply('start flow research');
    const job = userMessage('steps', 'research EVs');
    await rt.queue.enqueue([job]);
    await rt.drain(async () => (await rt.replies.read('steps', job.turn_id)).settled);
    const replies = await rt.replies.read('steps', job.turn_id);
    expect(replies.messages.map((m) => m.message.text)).toEqual([
      'working (2 left)',
      'working (1 left)',
      'Research done.',
      'Noted EVs are cheaper to run.',
      'Can I help you with anything else?',
    ]);
    expect(runner.calls).toBe(3);
    const head = await rt.store.load('steps');
    expect(head?.runs).toEqual({});
    const tracker = await readTracker(rt.store, 'steps');
    const kinds = tracker.events.map((e) => (e as { event: string }).event);
    expect(kinds).toContain('agent_completed');
  }, 30_000);

  it('answer a message that arrives while the agent works with the processing pattern', async () => {
    const runner = countingRunner(2);
    const rt = await testRuntime(emulators, assistant, { runners: { runnerFor: () => runner } });
    rt.llm.reply('start flow research', 'start flow research');
    const first = userMessage('busy', 'research');
    const { processJob } = await import('../../../src/runtime/index.js');
    const never = new AbortController().signal;
    await processJob(first, rt.deps, never);
    const second = userMessage('busy', 'are you done?');
    await processJob(second, rt.deps, never);
    expect(
      (await rt.replies.read('busy', second.turn_id)).messages.map((m) => m.message.text),
    ).toEqual([
      "researcher is still working on your request. I'll let you know as soon as it's done.",
    ]);
  });

  it('retry a failing step with backoff, then fail the flow', async () => {
    const runner = countingRunner(1, 0, true);
    const rt = await testRuntime(emulators, assistant, { runners: { runnerFor: () => runner } });
    rt.llm.reply('start flow research');
    const job = userMessage('failing', 'research');
    await rt.queue.enqueue([job]);
    await rt.drain(async () => (await rt.replies.read('failing', job.turn_id)).settled);
    expect(runner.calls).toBe(4);
    expect(
      (await rt.replies.read('failing', job.turn_id)).messages.map((m) => m.message.text),
    ).toEqual(['Sorry, something went wrong on my side. Please try again in a moment.']);
  }, 30_000);

  it('drop the steps of a run whose flow was cancelled', async () => {
    const runner = countingRunner(5);
    const rt = await testRuntime(emulators, assistant, { runners: { runnerFor: () => runner } });
    rt.llm.reply('start flow research', 'cancel flow');
    const { processJob } = await import('../../../src/runtime/index.js');
    const never = new AbortController().signal;
    await processJob(userMessage('cancelled', 'research'), rt.deps, never);
    await processJob(userMessage('cancelled', 'stop it'), rt.deps, never);
    const head = await rt.store.load('cancelled');
    const runId = Object.keys(head?.runs ?? {})[0] as string;
    const frameId = 'f2';
    const step: Job = {
      type: 'agent_step',
      id: `${runId}#0`,
      conversation_id: 'cancelled',
      turn_id: 'x',
      run_id: runId,
      frame_id: frameId,
      step: 0,
    };
    expect(await processJob(step, rt.deps, never)).toBe('done');
    expect(runner.calls).toBe(1);
    expect((await rt.store.load('cancelled'))?.runs).toEqual({});
    expect((await rt.store.load('cancelled'))?.state.stack).toEqual([]);
  });
});
