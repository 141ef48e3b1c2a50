import { describeUtterances } from './assertions.js';
import { type CheckResult, failed, listOrNone, passed } from './checkResult.js';
import type { Step } from './testCase.js';
import { botUtterances, sameValue, show, slotChanges, type TurnEvent } from './turnEvents.js';

type CheckedStep = Exclude<Step, { kind: 'user' }>;

/**
 * Checks a `bot`, `utter`, `slot_was_set` or `slot_was_not_set` step against the turn of the user
 * step before it (before the first user step: the events the fixtures wrote), as Rasa does: the
 * turn must hold a matching event, in any order.
 */
export function checkStep(step: CheckedStep, events: readonly TurnEvent[]): CheckResult {
  switch (step.kind) {
    case 'bot':
    case 'utter': {
      const utterances = botUtterances(events);
      const hit = utterances.find((u) =>
        step.kind === 'bot' ? u.text?.trim() === step.text : u.response === step.name,
      );
      if (hit) return passed(hit.index);
      const expected =
        step.kind === 'bot' ? `bot says ${JSON.stringify(step.text)}` : `bot utters ${step.name}`;
      return failed(expected, `bot said ${describeUtterances(utterances)}`);
    }
    case 'slot_was_set': {
      const { slot } = step;
      const changes = slotChanges(events).filter((c) => c.name === slot.name);
      const hit = changes.find((c) => !slot.hasValue || sameValue(c.value, slot.value));
      if (hit) return passed(hit.index);
      const set = [...new Set(slotChanges(events).map((c) => c.name))];
      return failed(
        `slot ${slot.name} set${slot.hasValue ? ` to ${show(slot.value)}` : ''}`,
        changes.length === 0
          ? `slot ${slot.name} was not set (slots set: ${listOrNone(set, 'none')})`
          : `slot ${slot.name} was set to ${changes.map((c) => show(c.value)).join(', then ')}`,
      );
    }
    case 'slot_was_not_set': {
      const { slot } = step;
      const hit = slotChanges(events).find(
        (c) => c.name === slot.name && (!slot.hasValue || sameValue(c.value, slot.value)),
      );
      if (!hit) return passed();
      return failed(
        `slot ${slot.name} not set${slot.hasValue ? ` to ${show(slot.value)}` : ''}`,
        `slot ${slot.name} was set to ${show(hit.value)}`,
      );
    }
    default:
      return step satisfies never;
  }
}
