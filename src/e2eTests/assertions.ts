import { type CheckResult, failed, listOrNone, passed } from './checkResult.js';
import { type GenerativeContext, judgeGenerative } from './generative.js';
import type { Assertion } from './testCase.js';
import { assertNever } from './testCase.js';
import {
  actionEvents,
  type BotUtterance,
  botUtterances,
  flowEvents,
  frameData,
  sameValue,
  show,
  slotChanges,
  type TurnEvent,
} from './turnEvents.js';

/** What assertions need besides the turn's events. */
export interface AssertionContext extends GenerativeContext {
  /** A flow's readable name (its `name`, or its id). */
  readonly flowName: (flowId: string) => string;
}

const CLARIFICATION = 'pattern_clarification';

/** Checks one assertion against the events of its user step's turn. */
export async function checkAssertion(
  assertion: Assertion,
  events: readonly TurnEvent[],
  context: AssertionContext,
): Promise<CheckResult> {
  switch (assertion.type) {
    case 'flow_started':
      return flowEvent(events, 'flow_started', assertion.spec, undefined, 'started');
    case 'flow_completed':
      return flowEvent(
        events,
        'flow_completed',
        assertion.spec.flow_id,
        assertion.spec.flow_step_id,
        'completed',
      );
    case 'flow_cancelled':
      return flowEvent(
        events,
        'flow_cancelled',
        assertion.spec.flow_id,
        assertion.spec.flow_step_id,
        'cancelled',
      );
    case 'pattern_clarification_contains':
      return clarification(events, assertion.spec, context);
    case 'action_executed':
      return actionExecuted(events, assertion.spec);
    case 'slot_was_set':
      return slotWasSet(events, assertion.spec);
    case 'slot_was_not_set':
      return slotWasNotSet(events, assertion.spec);
    case 'bot_uttered':
      return botUttered(events, assertion.spec);
    case 'bot_did_not_utter':
      return botDidNotUtter(events, assertion.spec);
    case 'generative_response_is_relevant':
    case 'generative_response_is_grounded':
      return judgeGenerative(assertion, botUtterances(events), context);
    default:
      return assertNever(assertion);
  }
}

function flowEvent(
  events: readonly TurnEvent[],
  kind: string,
  flowId: string,
  stepId: string | undefined,
  verb: string,
): CheckResult {
  const all = flowEvents(events, kind);
  const expected = `flow ${flowId} ${verb}${stepId !== undefined ? ` at step ${stepId}` : ''}`;
  const match = all.find((e) => e.flowId === flowId);
  if (!match)
    return failed(
      expected,
      `flows ${verb}: ${listOrNone(
        all.map((e) => e.flowId),
        'none',
      )}`,
    );
  if (stepId !== undefined && match.stepId !== stepId) {
    return failed(expected, `flow ${flowId} ${verb} at step ${match.stepId ?? '(none)'}`);
  }
  return passed(match.index);
}

function clarification(
  events: readonly TurnEvent[],
  names: readonly string[],
  context: AssertionContext,
): CheckResult {
  const expected = `${CLARIFICATION} offering ${names.join(', ')}`;
  const started = flowEvents(events, 'flow_started').find((e) => e.flowId === CLARIFICATION);
  if (!started) return failed(expected, `${CLARIFICATION} did not start`);
  const data = frameData(events, CLARIFICATION);
  const ids = Array.isArray(data?.names) ? data.names.filter((n) => typeof n === 'string') : [];
  const offered = ids.map((id) => context.flowName(id));
  // Rasa compares flow names; a list of flow ids means the same flows.
  const wanted = new Set(names);
  const same = (list: readonly string[]) =>
    list.length === wanted.size && list.every((item) => wanted.has(item));
  if (same(offered) || same(ids)) return passed(started.index);
  return failed(expected, `it offered ${listOrNone(offered, 'nothing')}`);
}

/**
 * Custom actions are logged as `action` events; a response counts as its action too (Rasa
 * logs `utter_*` actions), read from the bot message that rendered it.
 */
function actionExecuted(events: readonly TurnEvent[], name: string): CheckResult {
  const actions = actionEvents(events);
  const action = actions.find((a) => a.name === name);
  if (action) return passed(action.index);
  const utterances = botUtterances(events);
  const response = utterances.find((u) => u.response === name);
  if (response) return passed(response.index);
  const ran = [
    ...actions.map((a) => a.name),
    ...utterances.flatMap((u) => (u.response ? [u.response] : [])),
  ];
  return failed(`action ${name} executed`, `actions executed: ${listOrNone(ran, 'none')}`);
}

function slotWasSet(
  events: readonly TurnEvent[],
  slots: readonly { name: string; value?: unknown }[],
): CheckResult {
  const changes = slotChanges(events);
  let matched: number | undefined;
  for (const slot of slots) {
    const own = changes.filter((c) => c.name === slot.name);
    const hasValue = 'value' in slot;
    const expected = `slot ${slot.name} set${hasValue ? ` to ${show(slot.value)}` : ''}`;
    if (own.length === 0) return failed(expected, `slot ${slot.name} was not set`);
    const hit = hasValue ? own.find((c) => sameValue(c.value, slot.value)) : own[0];
    if (!hit)
      return failed(
        expected,
        `slot ${slot.name} was set to ${own.map((c) => show(c.value)).join(', then ')}`,
      );
    matched = hit.index;
  }
  return passed(matched);
}

function slotWasNotSet(
  events: readonly TurnEvent[],
  slots: readonly { name: string; value?: unknown }[],
): CheckResult {
  const changes = slotChanges(events);
  for (const slot of slots) {
    const last = changes.filter((c) => c.name === slot.name).at(-1);
    if (!last) continue;
    if ('value' in slot) {
      if (sameValue(last.value, slot.value)) {
        return failed(
          `slot ${slot.name} not set to ${show(slot.value)}`,
          `slot ${slot.name} was set to ${show(last.value)}`,
        );
      }
    } else if (last.value !== null) {
      return failed(
        `slot ${slot.name} not set`,
        `slot ${slot.name} was set to ${show(last.value)}`,
      );
    }
  }
  return passed();
}

interface BotMatchSpec {
  readonly utter_name?: string | undefined;
  readonly text_matches?: string | undefined;
  readonly buttons?: readonly { title: string; payload: string }[] | undefined;
}

function botUttered(events: readonly TurnEvent[], spec: BotMatchSpec): CheckResult {
  const utterances = botUtterances(events);
  const missing: string[] = [];
  let matched: number | undefined;
  const find = (what: string, test: (u: BotUtterance) => boolean) => {
    const hit = utterances.find(test);
    if (hit) matched = Math.max(matched ?? -1, hit.index);
    else missing.push(what);
  };
  if (spec.utter_name !== undefined)
    find(`response ${spec.utter_name}`, (u) => u.response === spec.utter_name);
  if (spec.text_matches !== undefined) {
    const pattern = new RegExp(spec.text_matches);
    find(
      `a message matching /${spec.text_matches}/`,
      (u) => u.text !== undefined && pattern.test(u.text),
    );
  }
  if (spec.buttons) {
    const buttons = spec.buttons;
    find(`buttons ${describeButtons(buttons)}`, (u) => startsWithButtons(u, buttons));
  }
  if (missing.length > 0) {
    return failed(
      `bot uttered ${missing.join(' and ')}`,
      `bot said ${describeUtterances(utterances)}`,
    );
  }
  return passed(matched);
}

function botDidNotUtter(events: readonly TurnEvent[], spec: BotMatchSpec): CheckResult {
  const pattern = spec.text_matches !== undefined ? new RegExp(spec.text_matches) : undefined;
  for (const u of botUtterances(events)) {
    const reasons = [
      ...(spec.utter_name !== undefined && u.response === spec.utter_name
        ? [`response ${spec.utter_name}`]
        : []),
      ...(pattern && u.text !== undefined && pattern.test(u.text)
        ? [`a message matching /${spec.text_matches}/`]
        : []),
      ...(spec.buttons?.some((b) =>
        u.buttons.some((a) => a.title === b.title && a.payload === b.payload),
      )
        ? [`a button of ${describeButtons(spec.buttons)}`]
        : []),
    ];
    if (reasons.length > 0) {
      return failed(
        `bot did not utter ${reasons.join(' or ')}`,
        `bot said ${describeUtterance(u)}`,
      );
    }
  }
  return passed();
}

/** The message's buttons begin with the expected ones, in order. */
function startsWithButtons(
  u: BotUtterance,
  expected: readonly { title: string; payload: string }[],
): boolean {
  return (
    u.buttons.length >= expected.length &&
    expected.every((b, i) => u.buttons[i]?.title === b.title && u.buttons[i]?.payload === b.payload)
  );
}

function describeButtons(buttons: readonly { title: string; payload: string }[]): string {
  return buttons.map((b) => `[${b.title} → ${b.payload}]`).join(' ');
}

export function describeUtterance(u: BotUtterance): string {
  const text = u.text !== undefined ? JSON.stringify(u.text) : '(no text)';
  const response = u.response ? ` (${u.response})` : '';
  const buttons = u.buttons.length > 0 ? ` ${describeButtons(u.buttons)}` : '';
  return `${text}${response}${buttons}`;
}

export function describeUtterances(utterances: readonly BotUtterance[]): string {
  return listOrNone(utterances.map(describeUtterance), 'nothing', '; ');
}
