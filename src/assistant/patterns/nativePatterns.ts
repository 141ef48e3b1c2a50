import type { FlowStep } from '../schemas/flows.js';
import { BUILTIN_NATIVE_FLOWS } from './builtinData.generated.js';

/** The patterns Rasa runs for a collect step, which Switchboard's collect steps do natively. */
export const NATIVE_PATTERN = {
  collectInformation: 'pattern_collect_information',
  validateSlot: 'pattern_validate_slot',
} as const;

/** The default steps of each pattern in NATIVE_PATTERN, parsed as a project's flows are. */
export const NATIVE_PATTERN_STEPS: Readonly<Record<string, readonly FlowStep[]>> =
  /* @__PURE__ */ Object.fromEntries(
    Object.entries(BUILTIN_NATIVE_FLOWS).map(([id, flow]) => [id, flow.steps]),
  );
