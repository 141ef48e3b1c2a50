import type { FlowStep } from '../schemas/flows.js';
import { BUILTIN_PATTERN_DATA } from './builtinData.generated.js';

/** The patterns Rasa runs for a collect step, which Switchboard's collect steps do natively. */
export const NATIVE_PATTERN = {
  collectInformation: 'pattern_collect_information',
  validateSlot: 'pattern_validate_slot',
} as const;

/** The default steps of each pattern in NATIVE_PATTERN, parsed as a project's flows are. */
export const NATIVE_PATTERN_STEPS: Readonly<Record<string, readonly FlowStep[]>> =
  Object.fromEntries(
    Object.entries(BUILTIN_PATTERN_DATA.nativeFlows).map(([id, flow]) => [id, flow.steps]),
  );
