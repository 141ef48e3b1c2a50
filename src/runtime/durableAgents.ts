import { createHash } from 'node:crypto';
import type { AgentOutput } from '../assistant/index.js';
import type { AgentInvocation, AgentPending, AgentPort } from '../dialogue/index.js';
import type { AgentRunners } from './agentRunner.js';
import type { Job } from './jobs.js';
import type { AgentRunRecord } from './ports.js';
import { RUN_RECORD_VERSION, type RunState } from './runRecords.js';

/**
 * The agent port of one job: an invocation starts a durable run (its first record is committed
 * with the job, its first step is a follow-up job) and the turn waits for it.
 */
export class DurableAgentPort implements AgentPort {
  readonly records: AgentRunRecord[] = [];
  readonly jobs: Job[] = [];

  constructor(
    private readonly runners: AgentRunners,
    private readonly job: Job,
    private readonly channel: string,
  ) {}

  async invoke(invocation: AgentInvocation): Promise<AgentOutput | AgentPending> {
    const runner = this.runners.runnerFor(invocation.agent);
    if (!runner) {
      return {
        id: invocation.input.id,
        status: 'fatal_error',
        errorMessage: `no runner for ${invocation.agent.protocol} agents in this build (agent ${invocation.agent.name})`,
      };
    }
    // Derived from the job, so a job run again starts the same run; hashed, so ids stay short.
    const runId = `run-${createHash('sha256').update(`${this.job.id}~${this.records.length}`).digest('hex').slice(0, 24)}`;
    const data: RunState = {
      version: RUN_RECORD_VERSION,
      runner: runner.start(invocation),
      failures: 0,
      frameId: invocation.frameId,
      steps: 0,
      channel: this.channel,
      turnId: this.job.turn_id,
    };
    this.records.push({ runId, jobId: this.job.id, agentId: invocation.agent.name, data });
    this.jobs.push(stepJob(this.job, runId, invocation.frameId, 0));
    return { status: 'pending', runId };
  }
}

/** The job that runs step `step` of a run; its id is deterministic, so it is queued once. */
export function stepJob(
  parent: Pick<Job, 'conversation_id' | 'turn_id'>,
  runId: string,
  frameId: string,
  step: number,
  notBefore?: number,
): Job {
  return {
    type: 'agent_step',
    id: `${runId}#${step}`,
    conversation_id: parent.conversation_id,
    turn_id: parent.turn_id,
    frame_id: frameId,
    run_id: runId,
    step,
    ...(notBefore !== undefined ? { not_before: notBefore } : {}),
  };
}
