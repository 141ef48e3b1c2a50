import { NATIVE_PATTERN, NATIVE_PATTERN_STEPS } from '../../assistant/index.js';
import type { LoadContext } from '../loadContext.js';
import type { ProjectIndex } from '../projectIndex.js';

const WHAT_RUNS: Readonly<Record<string, string>> = {
  [NATIVE_PATTERN.collectInformation]:
    "a collect step asks (its utter, utter_ask_<slot> or action_ask_<slot>), checks the slot's rejections, runs validate_<slot> when the project has it, and asks again until the slot is filled",
  [NATIVE_PATTERN.validateSlot]:
    "a slot's validation (its rejections and refill_utter) is checked by the collect step that asks for it",
};

/**
 * Rasa runs a collect step through `pattern_collect_information` (and slot validation through
 * `pattern_validate_slot`); Switchboard does their default steps natively. A project's copy of a
 * default is therefore fine as it is; an override that changes the steps is noted, since the
 * change does not run.
 */
export function checkNativePatternOverrides(ctx: LoadContext, index: ProjectIndex): void {
  for (const [id, steps] of Object.entries(NATIVE_PATTERN_STEPS)) {
    const flow = index.flows.get(id);
    if (!flow || canonical(flow.value.steps) === canonical(steps)) continue;
    ctx.note(
      flow.source,
      flow.path,
      `flow "${id}" overrides Rasa's default with other steps, which Switchboard does not run: ${WHAT_RUNS[id]}, as Rasa's default pattern does. Move what the override adds into the flows or into a validate_<slot> action`,
      'key',
    );
  }
}

/** JSON text of a value with the keys of every object sorted, to compare parsed YAML. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item !== null && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}
