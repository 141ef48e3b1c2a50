import { describe, expect, it } from 'vitest';
import {
  type ActionContext,
  type ActionPort,
  type ActionResult,
  DialogueEngine,
  TurnUnavailableError,
} from '../../../src/dialogue/index.js';
import { loadProjectActions } from '../../../src/extensions/index.js';
import { assistantFrom, Conversation, testPorts } from '../../helpers/dialogue.js';

const files = {
  'domain.yml': `slots:
  risk:
    type: text
responses:
  utter_risk:
    - text: Risk is {risk}.
`,
  'data/flows.yml': `flows:
  assess:
    description: Assess the risk.
    steps:
      - action: action_assess_risk
      - action: utter_risk
  broken:
    description: Runs a failing action.
    steps:
      - action: action_fail
  odd:
    description: Runs an action with a bad result.
    steps:
      - action: action_odd
`,
  'custom/actions.ts': `export async function action_assess_risk(context: { senderId: string; slots: Record<string, unknown> }) {
  return { slots: { risk: 'low for ' + context.senderId }, messages: [{ text: 'Assessing...' }] };
}
export function action_fail() {
  throw new Error('database unreachable');
}
export function action_odd() {
  return { slots: 'nope' };
}
`,
};

async function conversation(): Promise<Conversation> {
  const assistant = await assistantFrom(files);
  expect(assistant.actions).toEqual(['action_assess_risk', 'action_fail', 'action_odd']);
  return new Conversation(
    new DialogueEngine(assistant),
    testPorts(await loadProjectActions(assistant)),
    'ann',
  );
}

describe('custom actions', () => {
  it('run from a flow, set slots and send messages', async () => {
    const c = await conversation();
    c.ports.llm.reply('start flow assess');
    expect(await c.say('assess me')).toEqual([
      'Assessing...',
      'Risk is low for ann.',
      'Can I help you with anything else?',
    ]);
    expect(c.trace('action')).toEqual(['action:action_session_start', 'action:action_assess_risk']);
  });

  it('end the flow with the internal-error pattern when they throw', async () => {
    const c = await conversation();
    c.ports.llm.reply('start flow broken');
    expect(await c.say('go')).toEqual([
      'Sorry, something went wrong on my side. Please try again in a moment.',
    ]);
    expect(c.trace('flow_cancelled')).toEqual(['flow_cancelled:broken']);
  });

  it('end the flow with the internal-error pattern when they return something else', async () => {
    const c = await conversation();
    c.ports.llm.reply('start flow odd');
    expect(await c.say('go')).toEqual([
      'Sorry, something went wrong on my side. Please try again in a moment.',
    ]);
  });
});

/** Actions that answer from a script and record what they were given. */
function scriptedActions(results: Record<string, ActionResult | Error | (() => ActionResult)>) {
  const contexts: { name: string; context: ActionContext }[] = [];
  const port: ActionPort = {
    has: (name) => name in results,
    run: async (name, context) => {
      contexts.push({ name, context });
      const result = results[name];
      if (result instanceof Error) throw result;
      return typeof result === 'function' ? result() : (result ?? {});
    },
  };
  return { port, contexts };
}

const serverFiles = {
  // The scripted port stands in for the action server; nothing listens at this address.
  'endpoints.yml': 'action_endpoint:\n  url: http://127.0.0.1:9/webhook\n',
  'domain.yml': `actions:
  - action_check
  - action_more
slots:
  balance:
    type: float
  account:
    type: text
    initial_value: checking
responses:
  utter_balance:
    - text: Your {account} balance is {balance}.
  utter_greet_user:
    - condition: slots.account = "savings"
      text: Hello {name}, saver.
    - text: Hello {name}.
      buttons:
        - title: Balance
          payload: /check
`,
  'data/flows.yml': `flows:
  check:
    description: Check the balance.
    steps:
      - action: action_check
      - action: utter_balance
`,
};

async function serverConversation(results: Parameters<typeof scriptedActions>[0]) {
  const actions = scriptedActions(results);
  const c = new Conversation(
    new DialogueEngine(await assistantFrom(serverFiles)),
    testPorts(actions.port),
    'ann',
  );
  c.ports.llm.reply('start flow check');
  return { c, contexts: actions.contexts };
}

describe('custom actions with what a Rasa action server answers', () => {
  it('see the conversation up to themselves: its recent events and stack', async () => {
    const { c, contexts } = await serverConversation({ action_check: {} });
    await c.say('my balance please');
    const context = contexts[0]?.context;
    // The session started before the message, as in Rasa; the action sees its own flow start last.
    expect(context?.events?.map((e) => e.event)).toEqual([
      'session_started',
      'user',
      'flow_started',
      'action',
      'flow_completed',
      'flow_started',
    ]);
    expect(context?.stack?.map((f) => f.flow_id)).toEqual(['check']);
    expect(context?.latestMessage).toBe('my balance please');
  });

  it('say domain responses by name, with variables over the slots the action found', async () => {
    const { c } = await serverConversation({
      action_check: {
        slots: { balance: 12.5, account: 'savings' },
        responses: [
          { message: { text: 'Looking it up.' } },
          { name: 'utter_greet_user', variables: { name: 'Ann' } },
          { name: 'utter_greet_user', variables: { name: 'Bo' }, message: { text: 'Hi Bo!' } },
          { name: 'utter_missing' },
        ],
      },
    });
    expect(await c.say('balance')).toEqual([
      'Looking it up.',
      'Hello Ann.',
      'Hi Bo!',
      'Your savings balance is 12.5.',
      'Can I help you with anything else?',
    ]);
    const greeting = c.last?.messages[1];
    expect(greeting?.response).toBe('utter_greet_user');
    expect(greeting?.buttons).toEqual([{ title: 'Balance', payload: '/check' }]);
  });

  it('reset every slot to its initial value before the slots they set', async () => {
    const { c } = await serverConversation({
      action_check: { resetSlots: true, slots: { balance: 3.5 } },
    });
    c.state = { ...c.state, slots: { ...c.state.slots, account: 'joint' } };
    expect(await c.say('balance')).toContain('Your checking balance is 3.5.');
  });

  it('start the conversation over after their messages when they restart it', async () => {
    const { c } = await serverConversation({
      action_check: { restart: true, responses: [{ message: { text: 'Starting over.' } }] },
    });
    c.state = { ...c.state, slots: { ...c.state.slots, account: 'joint' } };
    expect(await c.say('balance')).toEqual(['Starting over.']);
    expect(c.state.stack).toEqual([]);
    expect(c.state.slots.account).toBe('checking');
    expect(c.trace('flow_cancelled')).toEqual(['flow_cancelled:check']);
  });

  it('run the follow-up action they name before the flow goes on', async () => {
    const { c } = await serverConversation({
      action_check: { slots: { balance: 5.5 }, followup: 'action_more' },
      action_more: { responses: [{ message: { text: 'More.' } }], followup: 'utter_balance' },
    });
    expect(await c.say('balance')).toEqual([
      'More.',
      'Your checking balance is 5.5.',
      'Your checking balance is 5.5.',
      'Can I help you with anything else?',
    ]);
    expect(c.trace('action')).toEqual([
      'action:action_session_start',
      'action:action_check',
      'action:action_more',
    ]);
  });

  it('end the flow with the internal-error pattern when follow-ups loop', async () => {
    const { c } = await serverConversation({ action_check: { followup: 'action_check' } });
    expect(await c.say('balance')).toEqual([
      'Sorry, something went wrong on my side. Please try again in a moment.',
    ]);
  });

  it('end the flow with the internal-error pattern, and nothing of theirs, when they decline to run', async () => {
    const { c } = await serverConversation({
      action_check: {
        rejected: 'not today',
        slots: { balance: 1 },
        responses: [{ message: { text: 'unseen' } }],
      },
    });
    expect(await c.say('balance')).toEqual([
      'Sorry, something went wrong on my side. Please try again in a moment.',
    ]);
    expect(c.state.slots.balance).toBeNull();
    const errorFrame = c.events
      .flatMap((e) => (e.event === 'stack' ? e.stack : []))
      .find((f) => f.flow_id === 'pattern_internal_error');
    expect(errorFrame && 'data' in errorFrame ? errorFrame.data.reason : undefined).toBe(
      'action action_check was rejected: not today',
    );
  });

  it('leave a failure worth another try to the turn when it asks for that', async () => {
    const unavailable = Object.assign(new Error('server down'), {
      transient: true,
      retryAfterMs: 3000,
    });
    const { c } = await serverConversation({ action_check: unavailable });
    const failure = await c.engine
      .handleMessage(c.state, { text: 'balance' }, c.ports, { retryUnavailable: true })
      .catch((e) => e);
    expect(failure).toBeInstanceOf(TurnUnavailableError);
    expect(failure.message).toBe('action action_check failed: server down');
    expect(failure.retryAfterMs).toBe(3000);
    c.ports.llm.reply('start flow check');
    expect(await c.say('balance')).toEqual([
      'Sorry, something went wrong on my side. Please try again in a moment.',
    ]);
  });

  it('carry a call key that stays the same when the turn runs again', async () => {
    const { c, contexts } = await serverConversation({ action_check: {} });
    const options = { callKey: 'turn-7', channel: 'rest' };
    await c.engine.handleMessage(c.state, { text: 'balance' }, c.ports, options);
    c.ports.llm.reply('start flow check');
    await c.engine.handleMessage(c.state, { text: 'balance' }, c.ports, options);
    expect(contexts.map((x) => x.context.callKey)).toEqual([
      'turn-7|f2|0_action_action_check|0',
      'turn-7|f2|0_action_action_check|0',
    ]);
    expect(contexts[0]?.context.channel).toBe('rest');
  });
});
