import { parse } from 'yaml';
import { type FlowStep, FlowsFile } from '../schemas/flows.js';

/** The patterns Rasa runs for a collect step, which Switchboard's collect steps do natively. */
export const NATIVE_PATTERN = {
  collectInformation: 'pattern_collect_information',
  validateSlot: 'pattern_validate_slot',
} as const;

/**
 * The steps of Rasa's default `pattern_collect_information` and `pattern_validate_slot`. A collect
 * step does what they do (check the slot's rejections, run `validate_<slot>`, ask with its utter
 * or `action_ask_<slot>`, wait for the answer, check again), without pushing a pattern; a
 * project's override with these same steps therefore changes nothing.
 */
const NATIVE_PATTERNS_YAML = `
flows:
  pattern_collect_information:
    description: Collect a slot's value.
    steps:
      - id: start
        action: action_run_slot_rejections
      - action: validate_{{context.collect}}
        next:
          - if: "slots.{{context.collect}} is not null"
            then: END
          - else: ask_collect
      - id: ask_collect
        action: "{{context.utter}}"
      - action: "{{context.collect_action}}"
      - action: action_listen
        next: start
  pattern_validate_slot:
    description: Validate a slot's value.
    steps:
      - id: start
        action: action_run_slot_rejections
        next:
          - if: "slots.{{context.validate}} is not null"
            then: END
          - else: ask_refill
      - id: ask_refill
        action: "{{context.refill_utter}}"
      - action: "{{context.refill_action}}"
      - action: action_listen
        next: start
`;

const flows = FlowsFile.parse(parse(NATIVE_PATTERNS_YAML)).flows;

/** The default steps of each pattern in NATIVE_PATTERN, parsed as a project's flows are. */
export const NATIVE_PATTERN_STEPS: Readonly<Record<string, readonly FlowStep[]>> =
  Object.fromEntries(Object.entries(flows).map(([id, flow]) => [id, flow.steps]));
