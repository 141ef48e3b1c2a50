import type { ActionContext, DialogueEvent } from '../../../src/dialogue/index.js';

/** The action server's token in these tests: never to be seen anywhere but on its requests. */
export const ACTION_TOKEN = 'tok-5c1e4f-do-not-leak';

/**
 * A banking project whose custom actions run on a Rasa action server at `url`. Its flows check
 * a balance (`action_check_balance`, then a response) and transfer money (`action_transfer`).
 */
export function bankProject(
  url: string,
  endpoint: string = 'token: ${ACTION_TOKEN}\n  headers:\n    X-Api: abc\n',
): Record<string, string> {
  return {
    '.env': `ACTION_TOKEN=${ACTION_TOKEN}\n`,
    'endpoints.yml': `action_endpoint:\n  url: ${url}\n  ${endpoint}`,
    'domain.yml': `intents:
  - check_balance
actions:
  - action_check_balance
  - action_transfer:
      send_domain: true
  - action_fetch_profile
  - validate_amount
slots:
  balance:
    type: float
  account:
    type: text
    initial_value: checking
  amount:
    type: float
responses:
  utter_balance:
    - text: "Your {account} balance is {balance}."
  utter_greet_user:
    - text: "Hello {name}, welcome back."
      buttons:
        - title: Balance
          payload: /check_balance
  utter_ask_amount:
    - text: How much?
`,
    'data/flows.yml': `flows:
  check_balance:
    description: Tell the user their balance.
    nlu_trigger:
      - intent: check_balance
    steps:
      - action: action_check_balance
      - action: utter_balance
  transfer:
    description: Transfer money.
    steps:
      - collect: amount
      - action: action_transfer
  profile:
    description: Show the profile.
    steps:
      - action: action_fetch_profile
`,
  };
}

/** What the engine gives an action mid-conversation: a user message, a flow started. */
export function actionContext(extra: Partial<ActionContext> = {}): ActionContext {
  const events: DialogueEvent[] = [
    { event: 'user', text: 'hi', timestamp: 100 },
    { event: 'bot', text: 'Hi! How can I help?', timestamp: 101 },
    {
      event: 'user',
      text: '/check_balance',
      commands: [{ command: 'start flow', flow: 'check_balance' }],
      timestamp: 102,
    },
    { event: 'flow_started', flow_id: 'check_balance', timestamp: 103 },
    { event: 'slot', name: 'account', value: 'savings', timestamp: 104 },
  ];
  return {
    senderId: 'ada',
    slots: { balance: null, account: 'savings', amount: null },
    latestMessage: '/check_balance',
    flowId: 'check_balance',
    stepId: '0_action_check_balance',
    events,
    stack: [
      {
        type: 'flow',
        frame_id: 'f1',
        flow_id: 'check_balance',
        step_id: '0_action_check_balance',
        frame_type: 'regular',
      },
    ],
    latestMetadata: { client: 'web' },
    channel: 'rest',
    callKey: 'turn-1|f1|0_action_check_balance|0',
    ...extra,
  };
}
