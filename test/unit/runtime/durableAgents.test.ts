import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Assistant } from '../../../src/assistant/index.js';
import type { AgentInvocation } from '../../../src/dialogue/index.js';
import { DurableAgentPort, stepJob } from '../../../src/runtime/durableAgents.js';
import type { AgentRunner, AgentRunners, Job } from '../../../src/runtime/index.js';
import { assistantFrom } from '../../helpers/dialogue.js';
import { RESEARCHER_PROJECT } from '../../helpers/project.js';

const FILES = RESEARCHER_PROJECT;

const runner: AgentRunner<{ question: string }> = {
  dataSchema: z.object({ question: z.string() }),
  start: (invocation) => ({ question: invocation.input.userMessage }),
  step: async (data) => ({ data, next: { type: 'continue' } }),
};
const withRunner: AgentRunners = { runnerFor: () => runner };

const job: Job = {
  type: 'user_message',
  id: 'job-1',
  conversation_id: 'c1',
  turn_id: 'turn-1',
  text: 'find cars',
  channel: 'rest',
};

let assistant: Assistant;
beforeAll(async () => {
  assistant = await assistantFrom(FILES);
});

function invocation(frameId = 'frame-1'): AgentInvocation {
  const agent = assistant.agents.researcher;
  if (!agent) throw new Error('the project has no researcher');
  return {
    agent,
    frameId,
    input: {
      id: 'input-1',
      userMessage: 'find cars',
      slots: [],
      conversationHistory: 'USER: find cars',
      events: [],
      metadata: {},
    },
    resumed: false,
    restarted: false,
  };
}

describe('DurableAgentPort', () => {
  it('ends the invocation with a fatal error naming the agent when no runner takes it', async () => {
    const port = new DurableAgentPort({ runnerFor: () => undefined }, job, 'rest');
    expect(await port.invoke(invocation())).toEqual({
      id: 'input-1',
      status: 'fatal_error',
      errorMessage: 'no runner for RASA agents in this build (agent researcher)',
    });
    expect(port.records).toEqual([]);
    expect(port.jobs).toEqual([]);
  });

  it("starts a run: its first record holds the runner's data, and its first step is queued", async () => {
    const port = new DurableAgentPort(withRunner, job, 'rest');
    const pending = await port.invoke(invocation());
    expect(pending).toMatchObject({ status: 'pending' });
    const runId = (pending as { runId: string }).runId;
    expect(runId).toMatch(/^run-[0-9a-f]{24}$/);
    expect(port.records).toEqual([
      {
        runId,
        jobId: 'job-1',
        agentId: 'researcher',
        data: {
          version: 1,
          runner: { question: 'find cars' },
          failures: 0,
          frameId: 'frame-1',
          steps: 0,
          channel: 'rest',
          turnId: 'turn-1',
        },
      },
    ]);
    expect(port.jobs).toEqual([stepJob(job, runId, 'frame-1', 0)]);
  });

  it('gives a job run again the same run ids, and each invocation of one job its own', async () => {
    const first = new DurableAgentPort(withRunner, job, 'rest');
    const again = new DurableAgentPort(withRunner, job, 'rest');
    const other = new DurableAgentPort(withRunner, { ...job, id: 'job-2' }, 'rest');
    const ids = async (port: DurableAgentPort) => [
      ((await port.invoke(invocation('a'))) as { runId: string }).runId,
      ((await port.invoke(invocation('b'))) as { runId: string }).runId,
    ];
    const [a1, b1] = await ids(first);
    expect(await ids(again)).toEqual([a1, b1]);
    expect(a1).not.toBe(b1);
    const [a2] = await ids(other);
    expect(a2).not.toBe(a1);
    expect(a2).not.toBe(b1);
  });
});

describe('stepJob', () => {
  it('names the step by its run and number, and carries a not-before time only when given', () => {
    expect(stepJob(job, 'run-x', 'frame-1', 3)).toEqual({
      type: 'agent_step',
      id: 'run-x#3',
      conversation_id: 'c1',
      turn_id: 'turn-1',
      frame_id: 'frame-1',
      run_id: 'run-x',
      step: 3,
    });
    expect(stepJob(job, 'run-x', 'frame-1', 3, 1_700)).toMatchObject({ not_before: 1_700 });
  });
});
