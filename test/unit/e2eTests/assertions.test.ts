import { describe, expect, it } from 'vitest';
import {
  type Assertion,
  type AssertionContext,
  checkAssertion,
  checkStep,
  type Judge,
  LlmJudge,
  type Step,
  type TurnEvent,
} from '../../../src/e2eTests/index.js';
import { ScriptedLlm } from '../../helpers/dialogue.js';

const where = { file: '/p/tests/t.yml', line: 1, col: 1 };
const assertion = (type: Assertion['type'], spec: unknown) => ({ type, spec, where }) as Assertion;

const user = (text: string): TurnEvent => ({ event: 'user', text });
const bot = (text: string, response?: string, buttons?: { title: string; payload: string }[]) => ({
  event: 'bot',
  text,
  ...(buttons ? { buttons } : {}),
  ...(response ? { metadata: { utter_action: response } } : {}),
});
const slot = (name: string, value: unknown): TurnEvent => ({ event: 'slot', name, value });
const flow = (event: string, flowId: string, stepId?: string): TurnEvent => ({
  event,
  flow_id: flowId,
  ...(stepId ? { step_id: stepId } : {}),
});

/** A transfer confirmed: the flow ends at its step `done`, slots reset, completion pattern. */
const TURN: TurnEvent[] = [
  user('yes'),
  slot('confirm', true),
  { event: 'action', name: 'action_send' },
  bot('Sent 50 to Ada.', 'utter_done'),
  flow('flow_completed', 'transfer', 'done'),
  slot('amount', null),
  flow('flow_started', 'pattern_completed'),
  bot('Anything else?', 'utter_can_do_something_else', [
    { title: 'Yes', payload: '/yes' },
    { title: 'No', payload: '/no' },
  ]),
];

const CONTEXT: AssertionContext = {
  userText: 'yes',
  flowName: (id) => ({ transfer: 'send money', balance: 'check your balance' })[id] ?? id,
  responseTexts: (name) => (name === 'utter_done' ? ['Sent {amount} to {recipient}.'] : []),
};

const check = (a: Assertion, events = TURN, context = CONTEXT) =>
  checkAssertion(a, events, context);

describe('assertions', () => {
  it.each([
    ['flow_started', 'pattern_completed'],
    ['flow_completed', { flow_id: 'transfer' }],
    ['flow_completed', { flow_id: 'transfer', flow_step_id: 'done' }],
    ['action_executed', 'action_send'],
    ['action_executed', 'utter_done'],
    ['slot_was_set', [{ name: 'confirm' }, { name: 'confirm', value: true }]],
    ['slot_was_set', [{ name: 'amount', value: null }]],
    [
      'slot_was_not_set',
      [{ name: 'recipient' }, { name: 'amount' }, { name: 'confirm', value: false }],
    ],
    ['bot_uttered', { utter_name: 'utter_done' }],
    ['bot_uttered', { text_matches: '^Sent \\d+ to' }],
    ['bot_uttered', { buttons: [{ title: 'Yes', payload: '/yes' }] }],
    ['bot_did_not_utter', { utter_name: 'utter_declined', text_matches: 'Nothing' }],
    ['bot_did_not_utter', { buttons: [{ title: 'Maybe', payload: '/maybe' }] }],
  ] as const)('%s %j passes on the turn', async (type, spec) => {
    expect((await check(assertion(type, spec))).status).toBe('passed');
  });

  it.each([
    ['flow_started', 'transfer', 'flow transfer started', 'flows started: pattern_completed'],
    [
      'flow_completed',
      { flow_id: 'transfer', flow_step_id: 'ask' },
      'flow transfer completed at step ask',
      'flow transfer completed at step done',
    ],
    ['flow_cancelled', { flow_id: 'transfer' }, 'flow transfer cancelled', 'flows cancelled: none'],
    [
      'action_executed',
      'action_refund',
      'action action_refund executed',
      'actions executed: action_send, utter_done, utter_can_do_something_else',
    ],
    ['slot_was_set', [{ name: 'recipient' }], 'slot recipient set', 'slot recipient was not set'],
    [
      'slot_was_set',
      [{ name: 'confirm', value: false }],
      'slot confirm set to false',
      'slot confirm was set to true',
    ],
    [
      'slot_was_not_set',
      [{ name: 'confirm' }],
      'slot confirm not set',
      'slot confirm was set to true',
    ],
    [
      'slot_was_not_set',
      [{ name: 'amount', value: null }],
      'slot amount not set to null',
      'slot amount was set to null',
    ],
    [
      'bot_uttered',
      { utter_name: 'utter_declined', text_matches: 'Sent' },
      'bot uttered response utter_declined',
      'bot said "Sent 50 to Ada." (utter_done); "Anything else?" (utter_can_do_something_else) [Yes → /yes] [No → /no]',
    ],
    [
      'bot_uttered',
      { buttons: [{ title: 'No', payload: '/no' }] },
      'bot uttered buttons [No → /no]',
      expect.stringContaining('bot said'),
    ],
    [
      'bot_did_not_utter',
      { text_matches: 'Sent' },
      'bot did not utter a message matching /Sent/',
      'bot said "Sent 50 to Ada." (utter_done)',
    ],
    [
      'bot_did_not_utter',
      { buttons: [{ title: 'No', payload: '/no' }] },
      'bot did not utter a button of [No → /no]',
      expect.stringContaining('"Anything else?"'),
    ],
  ] as const)(
    '%s %j fails, saying what was expected and what happened',
    async (type, spec, expected, actual) => {
      expect(await check(assertion(type, spec))).toEqual({ status: 'failed', expected, actual });
    },
  );

  it('finds the flows the clarification pattern offers, by name or by id', async () => {
    const events: TurnEvent[] = [
      user('money'),
      flow('flow_started', 'pattern_clarification'),
      {
        event: 'stack',
        stack: [
          {
            type: 'pattern',
            flow_id: 'pattern_clarification',
            data: { names: ['transfer', 'balance'] },
          },
        ],
      },
    ];
    const byName = assertion('pattern_clarification_contains', [
      'check your balance',
      'send money',
    ]);
    const byId = assertion('pattern_clarification_contains', ['transfer', 'balance']);
    const tooFew = assertion('pattern_clarification_contains', ['send money']);
    expect((await check(byName, events)).status).toBe('passed');
    expect((await check(byId, events)).status).toBe('passed');
    expect(await check(tooFew, events)).toEqual({
      status: 'failed',
      expected: 'pattern_clarification offering send money',
      actual: 'it offered send money, check your balance',
    });
    expect(await check(tooFew, TURN)).toMatchObject({
      actual: 'pattern_clarification did not start',
    });
  });
});

describe('generative assertions', () => {
  const events: TurnEvent[] = [user('what is my balance?'), bot('You have 5000 on savings.')];
  const relevant = assertion('generative_response_is_relevant', { threshold: 0.7 });
  const grounded = assertion('generative_response_is_grounded', {
    threshold: 0.7,
    utter_name: 'utter_done',
  });

  /** A judge that scores from a list and records what it was asked. */
  function judge(...scores: number[]): Judge & { asked: unknown[] } {
    const asked: unknown[] = [];
    return {
      asked,
      score: async (question) => {
        asked.push(question);
        return { score: scores.shift() ?? 0, reason: 'scripted' };
      },
    };
  }

  it('are not checked, never passed, without a judge', async () => {
    expect(await check(relevant, events)).toEqual({
      status: 'not_checked',
      reason: 'generative_response_is_relevant needs a real model to judge it',
    });
  });

  it('pass when the judge scores the generated message at the threshold or more', async () => {
    const scoring = judge(0.7);
    expect(
      (
        await check(relevant, events, {
          ...CONTEXT,
          userText: 'what is my balance?',
          judge: scoring,
        })
      ).status,
    ).toBe('passed');
    expect(scoring.asked).toEqual([
      { kind: 'relevance', question: 'what is my balance?', answer: 'You have 5000 on savings.' },
    ]);
  });

  it('fail below the threshold, with the judge reason', async () => {
    expect(await check(relevant, events, { ...CONTEXT, judge: judge(0.4) })).toEqual({
      status: 'failed',
      expected: 'a generated message (one no domain response rendered) relevant at 0.7 or more',
      actual: 'the judge scored it 0.4: scripted',
    });
  });

  it('judge groundedness against the domain response a message rendered', async () => {
    const scoring = judge(0.9);
    expect((await check(grounded, TURN, { ...CONTEXT, judge: scoring })).status).toBe('passed');
    expect(scoring.asked).toEqual([
      {
        kind: 'groundedness',
        answer: 'Sent 50 to Ada.',
        groundTruth: 'Sent {amount} to {recipient}.',
      },
    ]);
  });

  it('fail when the judge fails, saying why', async () => {
    const broken = new LlmJudge(new ScriptedLlm(['I would say it is fine.']));
    expect(await check(relevant, events, { ...CONTEXT, judge: broken })).toEqual({
      status: 'failed',
      expected: 'a generated message (one no domain response rendered) relevant at 0.7 or more',
      actual: "the judge failed: the judge's answer is not a score: I would say it is fine.",
    });
  });

  it('ask a chat model for a score and its reason', async () => {
    const model = new ScriptedLlm(['Here you go: {"score": 0.75, "reason": "answers it"}']);
    const verdict = await new LlmJudge(model).score({
      kind: 'groundedness',
      answer: 'You have 5000.',
      groundTruth: 'Balance: 5000',
    });
    expect(verdict).toEqual({ score: 0.75, reason: 'answers it' });
    expect(model.prompts[0]).toContain(
      'Facts:\nBalance: 5000\n\nAssistant answer:\nYou have 5000.',
    );
  });

  it('fail when the turn has no message to judge', async () => {
    expect(
      await check(
        relevant,
        TURN.filter((e) => e.event !== 'bot'),
        { ...CONTEXT, judge: judge(1) },
      ),
    ).toEqual({
      status: 'failed',
      expected: 'a generated message (one no domain response rendered) relevant at 0.7 or more',
      actual: 'the turn has no generated message (one no domain response rendered)',
    });
  });
});

describe('bot, utter and slot steps', () => {
  const step = (s: Record<string, unknown>) =>
    ({ where, ...s }) as Step as Exclude<Step, { kind: 'user' }>;

  it('match any event of the turn, in any order, as often as written', () => {
    expect(
      checkStep(step({ kind: 'utter', name: 'utter_can_do_something_else' }), TURN).status,
    ).toBe('passed');
    expect(checkStep(step({ kind: 'bot', text: 'Sent 50 to Ada.' }), TURN).status).toBe('passed');
    const amount = { name: 'amount', hasValue: true, value: null };
    expect(checkStep(step({ kind: 'slot_was_set', slot: amount }), TURN).status).toBe('passed');
    expect(
      checkStep(step({ kind: 'slot_was_set', slot: { name: 'amount', hasValue: false } }), TURN)
        .status,
    ).toBe('passed');
  });

  it('fail with what the turn said and set instead', () => {
    expect(checkStep(step({ kind: 'bot', text: 'Sent 60 to Ada.' }), TURN)).toMatchObject({
      expected: 'bot says "Sent 60 to Ada."',
      actual: expect.stringMatching(
        /^bot said "Sent 50 to Ada\." \(utter_done\); "Anything else\?"/,
      ),
    });
    expect(
      checkStep(step({ kind: 'slot_was_set', slot: { name: 'recipient', hasValue: false } }), TURN),
    ).toEqual({
      status: 'failed',
      expected: 'slot recipient set',
      actual: 'slot recipient was not set (slots set: confirm, amount)',
    });
    expect(
      checkStep(
        step({ kind: 'slot_was_not_set', slot: { name: 'amount', hasValue: false } }),
        TURN,
      ),
    ).toEqual({
      status: 'failed',
      expected: 'slot amount not set',
      actual: 'slot amount was set to null',
    });
    const other = { name: 'confirm', hasValue: true, value: false };
    expect(checkStep(step({ kind: 'slot_was_not_set', slot: other }), TURN).status).toBe('passed');
  });
});
