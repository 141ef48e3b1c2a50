import {
  applyEvent,
  type ConversationState,
  coerceSlotValue,
  type DialogueEvent,
} from '../dialogue/index.js';
import { SwitchboardError } from '../resilience/index.js';
import type { JobRun } from './agentSteps.js';
import { DurableAgentPort } from './durableAgents.js';
import type { Job } from './jobs.js';
import type { RuntimeDeps } from './runtimeDeps.js';

/**
 * A `set_slots` job names a slot the domain lacks, or a value its slot cannot take.
 * Code `SLOT_VALUE_INVALID`.
 */
export class SlotValueError extends SwitchboardError {
  override readonly name = 'SlotValueError';
  override readonly code = 'SLOT_VALUE_INVALID';
}

/**
 * Writes the job's slot values as `slot` events, as a conversation's own turn would, and runs
 * nothing else: no flow starts and nothing is said. Every value is checked first, so a bad one
 * changes nothing.
 */
export function runSetSlots(
  job: Extract<Job, { type: 'set_slots' }>,
  state: ConversationState,
  deps: RuntimeDeps,
): JobRun {
  const slots = deps.engine.model.slots;
  const values = Object.entries(job.slots).map(([name, value]) => {
    const slot = slots[name];
    if (!slot) {
      throw new SlotValueError(`slot "${name}" is not defined in the domain`);
    }
    const fitted = coerceSlotValue(value, slot);
    if (!fitted.ok) {
      throw new SlotValueError(
        `slot "${name}" cannot take ${JSON.stringify(value)}: ${fitted.reason}`,
      );
    }
    return [name, fitted.value] as const;
  });
  const timestamp = deps.ports.now() / 1000;
  const events: DialogueEvent[] = values.map(([name, value]) => ({
    event: 'slot',
    name,
    value,
    timestamp,
  }));
  const next = events.reduce(applyEvent, state);
  return {
    channel: job.channel,
    agents: new DurableAgentPort(deps.runners, job, job.channel),
    result: { state: next, events, messages: [], commands: [] },
    records: [],
    jobs: [],
  };
}
