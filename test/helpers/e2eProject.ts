import type { ProjectFilesSpec } from './project.js';

/**
 * A small banking assistant for `switchboard test`: a money transfer (collects, a branch on a
 * confirmation, corrections and cancellation), a balance check started by an intent and ending
 * in a custom action, and two flows for the clarification pattern to offer.
 */
export const BANK_PROJECT: ProjectFilesSpec = {
  'config.yml': 'recipe: default.v1\npipeline:\n  - name: CompactLLMCommandGenerator\n',
  'endpoints.yml': '',
  'domain.yml': `intents:
  - check_balance
slots:
  recipient:
    type: text
  amount:
    type: float
  confirm_transfer:
    type: bool
  account_type:
    type: categorical
    values: [checking, savings]
  balance:
    type: any
  membership:
    type: text
responses:
  utter_ask_recipient:
    - text: Who should get the money?
  utter_ask_amount:
    - text: How much should {recipient} get?
  utter_ask_confirm_transfer:
    - text: Send {amount} to {recipient}?
      buttons:
        - title: "Yes"
          payload: /SetSlots(confirm_transfer=true)
        - title: "No"
          payload: /SetSlots(confirm_transfer=false)
  utter_transfer_done:
    - condition: slots.membership = "premium"
      text: Sent {amount} to {recipient}, fee-free as a premium member.
    - text: Sent {amount} to {recipient}.
  utter_transfer_declined:
    - text: Nothing was sent.
  utter_ask_account_type:
    - text: Which account?
      buttons:
        - title: Checking
          payload: /SetSlots(account_type=checking)
        - title: Savings
          payload: /SetSlots(account_type=savings)
  utter_balance:
    - text: Your {account_type} balance is {balance}.
`,
  'data/flows.yml': `flows:
  transfer_money:
    name: send money
    description: Send money to someone.
    steps:
      - id: ask_recipient
        collect: recipient
      - id: ask_amount
        collect: amount
      - id: ask_confirmation
        collect: confirm_transfer
        next:
          - if: slots.confirm_transfer
            then:
              - id: transfer_done
                action: utter_transfer_done
                next: END
          - else:
              - id: transfer_declined
                action: utter_transfer_declined
                next: END
  check_balance:
    name: check your balance
    description: Tell the user the balance of an account.
    nlu_trigger:
      - intent: check_balance
    steps:
      - collect: account_type
      - action: action_check_balance
      - id: tell_balance
        action: utter_balance
`,
  'custom/actions.ts': `export function action_check_balance(context: { slots: Record<string, unknown> }) {
  const type = String(context.slots.account_type);
  return {
    slots: { balance: type === 'savings' ? 5000 : 1200 },
    messages: [{ text: \`Looking up your \${type} account.\` }],
  };
}
`,
  'tests/e2e_commands.yml': `# What the command generator answers for each user message of the tests.
commands:
  I want to send money: start flow transfer_money
  Ada: set slot recipient Ada
  "50": set slot amount 50
  make it 60: set slot amount 60
  never mind: cancel flow
  money: disambiguate flows transfer_money check_balance
  "declines a transfer::no": set slot confirm_transfer false
`,
};

/** Test cases that all pass against BANK_PROJECT: every step type and every assertion type. */
export const PASSING_TESTS = `fixtures:
  - premium:
      - membership: premium
metadata:
  - web:
      channel_name: web
  - mobile:
      channel_name: mobile
      app_version: "2.1"
stub_custom_actions:
  balance with a stub::action_check_balance:
    events:
      - event: slot
        name: balance
        value: 42
    responses:
      - text: The stub looked it up.
test_cases:
  - test_case: sends money
    steps:
      - user: I want to send money
      - utter: utter_ask_recipient
      - user: Ada
      - slot_was_set:
          - recipient: Ada
      - slot_was_not_set:
          - amount
      - bot: How much should Ada get?
      - user: "50"
      - slot_was_set:
          - amount
          - amount: 50
      - slot_was_not_set:
          - amount: 60
      - utter: utter_ask_confirm_transfer
      - user: /SetSlots(confirm_transfer=true)
      - bot: Sent 50.0 to Ada.
      - utter: utter_can_do_something_else

  - test_case: declines a transfer
    steps:
      - user: I want to send money
      - user: Ada
      - user: "50"
      - user: no
        assertions:
          - flow_completed:
              flow_id: transfer_money
              flow_step_id: transfer_declined
          - bot_did_not_utter:
              utter_name: utter_transfer_done

  - test_case: corrects the amount
    steps:
      - user: I want to send money
      - user: Ada
      - user: "50"
      - user: make it 60
        assertion_order_enabled: true
        assertions:
          - flow_started: pattern_correction
          - slot_was_set:
              - name: amount
                value: 60
          - bot_uttered:
              utter_name: utter_ask_confirm_transfer
              text_matches: "^Send 60\\\\.0 to Ada\\\\?$"
      - user: /SetSlots(confirm_transfer=true)
        assertions:
          - flow_completed:
              flow_id: transfer_money
              flow_step_id: transfer_done

  - test_case: cancels a transfer
    steps:
      - user: I want to send money
        assertions:
          - flow_started: transfer_money
      - user: Ada
      - user: never mind
        assertions:
          - flow_cancelled:
              flow_id: transfer_money
              flow_step_id: ask_amount
          - slot_was_not_set:
              - name: amount
          - bot_did_not_utter:
              text_matches: Sent
              buttons:
                - title: "Yes"
                  payload: /SetSlots(confirm_transfer=true)

  - test_case: asks which flow was meant
    steps:
      - user: money
        assertions:
          - pattern_clarification_contains:
              - send money
              - check your balance
          - bot_uttered:
              buttons:
                - title: check your balance
                  payload: /StartFlow(check_balance)

  - test_case: checks the balance
    metadata: web
    steps:
      - user: /check_balance
        metadata: mobile
        assertions:
          - flow_started: check_balance
          - bot_uttered:
              utter_name: utter_ask_account_type
      - user: /SetSlots(account_type=savings)
        assertions:
          - action_executed: action_check_balance
          - action_executed: utter_balance
          - slot_was_set:
              - name: balance
                value: 5000
          - bot_uttered:
              text_matches: savings balance is 5000
          - flow_completed:
              flow_id: check_balance
          - generative_response_is_relevant:
              threshold: 0.8
          - generative_response_is_grounded:
              threshold: 0.8
              utter_name: utter_balance

  - test_case: sends money as a premium member
    fixtures:
      - premium
    steps:
      - slot_was_set:
          - membership: premium
      - user: I want to send money
      - user: Ada
      - user: "50"
      - user: /SetSlots(confirm_transfer=true)
      - bot: Sent 50.0 to Ada, fee-free as a premium member.

  - test_case: balance with a stub
    steps:
      - user: /check_balance
      - user: /SetSlots(account_type=checking)
      - bot: The stub looked it up.
      - slot_was_set:
          - balance: 42
      - bot: Your checking balance is 42.
`;
