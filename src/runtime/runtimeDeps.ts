import type { DialogueEngine, DialoguePorts } from '../dialogue/index.js';
import type { AgentRunners } from './agentRunner.js';
import type { ConversationStore, JobQueue, OutputChannel } from './ports.js';
import type { StepReport } from './stepReport.js';

/** Everything a job needs: the engine and the adapters, assembled by `createRuntime`. */
export interface RuntimeDeps {
  readonly engine: DialogueEngine;
  readonly store: ConversationStore;
  readonly queue: JobQueue;
  /** Delivers bot messages to the channel each batch names. */
  readonly output: OutputChannel;
  /** Whether a channel shows previews of text being written (none do when absent). */
  readonly streams?: (channel: string) => boolean;
  readonly runners: AgentRunners;
  /** The dialogue's ports other than agents (each job gets its own durable agent port). */
  readonly ports: Omit<DialoguePorts, 'agents'>;
  /**
   * Told of each agent step once its job has committed (the local stack's inspector keeps them
   * in memory); nothing is stored for it. A step whose commit was lost runs again and is told
   * again.
   */
  readonly journal?: (report: StepReport) => void;
}
