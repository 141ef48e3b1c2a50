/** One step of a ReAct run as `sendMessage` sees it: it runs the phase the run's data is in. */
import { closingCall, modelCall } from './modelPhase.js';
import type { AgentStep, AgentStepPhase, AgentStepResult } from './protocol.js';
import type { StepState } from './stepState.js';
import { runTools } from './toolPhase.js';

/** One step of a run: what `sendMessage` runs. Works on its own copy of the run's data. */
export class Iteration implements AgentStep {
  readonly phase: AgentStepPhase;
  readonly modelCalls: number;
  readonly first: boolean;
  /** Whether `run` was called: a `sendMessage` that neither runs the step nor ends the run stalls it. */
  ran = false;

  constructor(private readonly state: StepState) {
    const run = state.data;
    this.phase = run.pending?.length ? 'tools' : run.closing ? 'closing' : 'model';
    this.modelCalls = run.modelCalls;
    this.first = run.modelCalls === 0 && run.messages.length === 0;
  }

  async run(): Promise<AgentStepResult> {
    this.ran = true;
    switch (this.phase) {
      case 'tools':
        return runTools(this.state);
      case 'closing':
        return closingCall(this.state);
      case 'model':
        return modelCall(this.state);
    }
  }
}
