import { describeUtterances } from './assertions.js';
import { type CheckResult, failed, listOrNone, passed } from './checkResult.js';
import type { Step } from './testCase.js';
import { botUtterances, sameValue, show, slotChanges, type TurnEvent } from './turnEvents.js';

type CheckedStep = Exclude<Step, { kind: 'user' }>;

/**
 * Checks a `bot`, `utter`, `slot_was_set` or `slot_was_not_set` step against the turn of the user
 * step before it, as Rasa does: the turn must hold a matching event, in any order. A matched bot
 * message or slot event is used up, so two equal steps need two messages.
 */
export function checkStep(
  step: CheckedStep,
  events: readonly TurnEvent[],
  used: Set<number>,
): CheckResult {
  switch (step.kind) {
    case 'bot':
    case 'utter': {
      const utterances = botUtterances(events);
      const hit = utterances.find(
        (u) =>
          !used.has(u.index) &&
          (step.kind === 'bot' ? u.text?.trim() === step.text : u.response === step.name),
      );
      if (hit) {
        used.add(hit.index);
        return passed(hit.index);
      }
      const expected =
        step.kind === 'bot' ? `bot says ${JSON.stringify(step.text)}` : `bot utters ${step.name}`;
      return failed(expected, `bot said ${describeUtterances(utterances)}`);
    }
    case 'slot_was_set': {
      const { slot } = step;
      const changes = slotChanges(events).filter((c) => c.name === slot.name);
      const hit = changes.find(
        (c) => !used.has(c.index) && (!slot.hasValue || sameValue(c.value, slot.value)),
      );
      if (hit) {
        used.add(hit.index);
        return passed(hit.index);
      }
      return failed(
        `slot ${slot.name} set${slot.hasValue ? ` to ${show(slot.value)}` : ''}`,
        changes.length === 0
          ? `slot ${slot.name} was not set (slots set: ${listOrNone([...new Set(slotChanges(events).map((c) => c.name))], 'none')})`
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
