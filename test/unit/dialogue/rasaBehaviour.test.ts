import { describe, expect, it } from 'vitest';
import { type ActionPort, DialogueEngine } from '../../../src/dialogue/index.js';
import { loadProjectActions } from '../../../src/extensions/index.js';
import { assistantFrom, Conversation, newConversation, testPorts } from '../../helpers/dialogue.js';
import { errorLines, loadProject, type ProjectFilesSpec } from '../../helpers/project.js';

/** Rasa behaviours a project relies on, each named after what was found to differ. */

const DOMAIN = `slots:
  recipient:
    type: text
  amount:
    type: float
  confirmed:
    type: bool
  discount:
    type: float
    mappings:
      - type: controlled
  pizza_size:
    type: text
    mappings:
      - type: from_llm
        conditions:
          - active_flow: order_pizza
  car_price:
    type: float
  confirm_slot_correction:
    type: bool
responses:
  utter_ask_recipient:
    - text: Who should receive the money?
  utter_ask_amount:
    - text: How much should I send to {recipient}?
  utter_ask_confirmed:
    - text: Send {amount} to {recipient}?
  utter_done:
    - text: Sent {amount} to {recipient}.
  utter_ask_pizza_size:
    - text: Which size?
  utter_pizza:
    - text: A {pizza_size} pizza it is.
  utter_price:
    - text: "The car costs \${car_price}."
  utter_price_jinja:
    - text: "In total \${{ slots.car_price }}."
      metadata:
        template: jinja
  utter_ask_confirm_slot_correction:
    - text: "Change {{ context.corrected_slots.keys() | join(', ') }} to {{ context.new_slot_values | join(', ') }}?"
      metadata:
        template: jinja
  utter_not_corrected_previous_input:
    - text: Okay, I kept it as it was.
  utter_stopping_transfer:
    - text: Stopping the transfer, as you asked.
  utter_welcome:
    - text: Welcome to the bank!
  utter_can_do_something_else:
    - text: Anything else?
`;

const FLOWS = `flows:
  transfer_money:
    name: transfer money
    description: Send money to someone.
    steps:
      - collect: recipient
      - collect: amount
      - collect: confirmed
        next:
          - if: slots.confirmed
            then:
              - action: utter_done
                next: END
          - else: END
  order_pizza:
    description: Order a pizza.
    steps:
      - collect: pizza_size
      - action: utter_pizza
  say_price:
    description: Say the car's price.
    steps:
      - set_slots:
          - car_price: 24999.5
      - action: utter_price
      - action: utter_price_jinja
`;

const PROJECT: ProjectFilesSpec = { 'domain.yml': DOMAIN, 'data/flows.yml': FLOWS };

/** Rasa's own pattern_correction override that asks before changing anything. */
const CONFIRMING_CORRECTION = `flows:
  pattern_correction:
    description: Confirm a previous correction of a slot value.
    steps:
      - noop: true
        next:
          - if: context.is_reset_only
            then:
              - action: action_correct_flow_slot
                next: END
          - else:
            - collect: confirm_slot_correction
              next:
                - if: not slots.confirm_slot_correction
                  then:
                    - action: utter_not_corrected_previous_input
                      next: END
                - else:
                    - action: action_correct_flow_slot
                    - action: utter_corrected_previous_input
                      next: END
`;

async function withActions(files: ProjectFilesSpec): Promise<Conversation> {
  const assistant = await assistantFrom(files);
  const actions: ActionPort = await loadProjectActions(assistant);
  return new Conversation(new DialogueEngine(assistant), testPorts(actions));
}

describe('Rasa behaviours', () => {
  it('renders ${slot} in a response as a dollar sign and the slot, and ${{ }} as Jinja', async () => {
    const c = await newConversation(PROJECT);
    expect(await c.say('/StartFlow(say_price)')).toEqual([
      'The car costs $24999.5.',
      'In total $24999.5.',
      'Anything else?',
    ]);
  });

  it("says a float slot's whole number as Rasa does, 2000.0, with True and None as Python writes them", async () => {
    const c = await newConversation({
      'domain.yml': `slots:
  monthly_income:
    type: float
  employed:
    type: bool
  employer:
    type: text
responses:
  utter_ask_monthly_income:
    - text: What do you earn a month?
  utter_income:
    - text: "Your income: {monthly_income} dollars (employed: {employed}, employer: {employer})."
`,
      'data/flows.yml': `flows:
  income:
    description: Note the income.
    steps:
      - collect: monthly_income
      - set_slots:
          - employed: true
      - action: utter_income
`,
    });
    c.ports.llm.reply('start flow income', 'set slot monthly_income 2000');
    await c.say('my income');
    expect(await c.say('2000')).toEqual([
      'Your income: 2000.0 dollars (employed: True, employer: None).',
      'Can I help you with anything else?',
    ]);
  });

  it("refuses a value not of the collected slot's type with Rasa's rejection for the type, and asks again", async () => {
    const c = await newConversation({
      'domain.yml': `slots:
  send_flowers_type:
    type: categorical
    values: [roses, lilies, pinks]
  gift_wrap:
    type: bool
  budget:
    type: float
  card_text:
    type: text
responses:
  utter_ask_send_flowers_type:
    - text: Which flowers?
  utter_ask_gift_wrap:
    - text: Gift wrapped?
  utter_ask_budget:
    - text: What is your budget?
  utter_ask_card_text:
    - text: What should the card say?
  utter_ordered:
    - text: "{send_flowers_type}, wrapped: {gift_wrap}, {budget}."
`,
      'data/flows.yml': `flows:
  send_flowers:
    description: Send flowers.
    steps:
      - collect: send_flowers_type
      - collect: gift_wrap
      - collect: budget
      - collect: card_text
      - action: utter_ordered
`,
    });
    c.ports.llm.reply(
      'start flow send_flowers',
      'set slot send_flowers_type daffodils',
      'set slot send_flowers_type Lilies',
      'set slot gift_wrap perhaps',
      'set slot gift_wrap yes',
      'set slot budget a lot',
      // A value for a slot the flow is not asking for yet is dropped, as before.
      'set slot budget 40\nset slot send_flowers_type tulips',
    );
    await c.say('send flowers');
    expect(await c.say('daffodils')).toEqual([
      'Sorry, daffodils is not one of the options. Please pick one of them.',
      'Which flowers?',
    ]);
    expect(c.state.slots.send_flowers_type).toBeNull();
    expect(await c.say('lilies')).toEqual(['Gift wrapped?']);
    expect(await c.say('perhaps')).toEqual([
      'Sorry, perhaps is not an answer I can use here. Please answer yes or no.',
      'Gift wrapped?',
    ]);
    expect(await c.say('yes')).toEqual(['What is your budget?']);
    expect(await c.say('a lot')).toEqual([
      'Sorry, a lot is not a number I can use. Please give a number.',
      'What is your budget?',
    ]);
    expect(await c.say('40, and tulips')).toEqual(['What should the card say?']);
    expect(c.state.slots).toMatchObject({ send_flowers_type: 'lilies', budget: 40 });
  });

  it("uses a response the project overrides under Rasa's name", async () => {
    const c = await newConversation(PROJECT);
    c.ports.llm.reply('start flow order_pizza');
    await c.say('a pizza please');
    expect(await c.say('/SetSlots(pizza_size=large)')).toEqual([
      'A large pizza it is.',
      'Anything else?',
    ]);
  });

  it("validates and runs Rasa's default pattern_continue_interrupted copied into a project", async () => {
    const copy = `flows:
  pattern_continue_interrupted:
    description: Conversation repair flow for managing when users switch between different flows
    name: pattern continue interrupted
    steps:
      - noop: true
        next:
          - if: context.multiple_flows_interrupted
            then: collect_interrupted_flow_to_continue
          - else: collect_continue_interrupted_flow_confirmation
      - id: collect_interrupted_flow_to_continue
        collect: interrupted_flow_to_continue
        description: "Fill this slot with the name of the flow the user wants to continue."
        next:
          - if: slots.interrupted_flow_to_continue is not "none"
            then:
              - action: action_continue_interrupted_flow
                next: END
          - else:
              - action: action_cancel_interrupted_flows
                next: END
      - id: collect_continue_interrupted_flow_confirmation
        collect: continue_interrupted_flow_confirmation
        description: "If the user wants to continue the interrupted flow, fill this slot with true."
        next:
          - if: slots.continue_interrupted_flow_confirmation
            then:
              - action: action_continue_interrupted_flow
                next: END
          - else:
              - action: action_cancel_interrupted_flows
                next: END
`;
    const files = { ...PROJECT, 'data/patterns.yml': copy };
    const { dir, result } = await loadProject(files);
    expect(errorLines(dir, result)).toEqual([]);

    const c = await newConversation(files);
    c.ports.llm.reply('start flow transfer_money');
    await c.say('send money');
    c.ports.llm.reply('start flow order_pizza');
    expect(await c.say('actually, I want a pizza first')).toEqual(['Which size?']);
    expect(await c.say('/SetSlots(pizza_size=small)')).toEqual([
      'A small pizza it is.',
      'Shall we get back to transfer money?',
    ]);
    expect(await c.say('/SetSlots(continue_interrupted_flow_confirmation=true)')).toEqual([
      'Who should receive the money?',
    ]);
    expect(c.trace('flow_resumed')).toEqual(['flow_resumed:transfer_money']);
  });

  it('asks which flow to go back to when several were interrupted, and resumes the one named', async () => {
    const c = await newConversation({
      ...PROJECT,
      'data/more.yml':
        'flows:\n  greet:\n    description: Greet.\n    steps:\n      - action: utter_welcome\n',
    });
    c.ports.llm.reply('start flow transfer_money');
    await c.say('send money');
    c.ports.llm.reply('start flow order_pizza');
    await c.say('pizza');
    c.ports.llm.reply('start flow greet');
    expect(await c.say('hello')).toEqual([
      'Welcome to the bank!',
      'Which of these shall we get back to: order_pizza or transfer money? Or none of them?',
    ]);
    c.ports.llm.reply('set slot interrupted_flow_to_continue transfer money');
    expect(await c.say('the money transfer')).toEqual(['Who should receive the money?']);
  });

  it('drops every interrupted flow when the user wants none of them', async () => {
    const c = await newConversation({
      ...PROJECT,
      'data/more.yml':
        'flows:\n  greet:\n    description: Greet.\n    steps:\n      - action: utter_welcome\n',
    });
    c.ports.llm.reply('start flow transfer_money');
    await c.say('send money');
    c.ports.llm.reply('start flow order_pizza');
    await c.say('pizza');
    c.ports.llm.reply('start flow greet');
    await c.say('hello');
    c.ports.llm.reply('set slot interrupted_flow_to_continue none');
    expect(await c.say('none of them')).toEqual([
      "Okay, let's leave order_pizza or transfer money then.",
    ]);
    expect(c.state.stack).toEqual([]);
    expect(c.trace('flow_cancelled')).toEqual([
      'flow_cancelled:order_pizza',
      'flow_cancelled:transfer_money',
    ]);
  });

  it('makes the pattern context readable in pattern conditions (context.canceled_name)', async () => {
    const c = await newConversation({
      ...PROJECT,
      'data/patterns.yml': `flows:
  pattern_cancel_flow:
    description: Cancel, and say so only for transfers.
    steps:
      - id: decide
        noop: true
        next:
          - if: context.canceled_name = "transfer money"
            then: inform
          - else: cancel
      - id: inform
        action: utter_stopping_transfer
        next: cancel
      - id: cancel
        action: action_cancel_flow
`,
    });
    c.ports.llm.reply('start flow transfer_money');
    await c.say('send money');
    c.ports.llm.reply('cancel flow');
    expect(await c.say('stop')).toEqual(['Stopping the transfer, as you asked.']);
    c.ports.llm.reply('start flow order_pizza');
    await c.say('pizza');
    c.ports.llm.reply('cancel flow');
    expect(await c.say('stop')).toEqual([]);
    expect(c.trace('flow_cancelled')).toEqual([
      'flow_cancelled:transfer_money',
      'flow_cancelled:order_pizza',
    ]);
  });

  it('keeps the old value when the user declines a correction', async () => {
    const c = await newConversation({ ...PROJECT, 'data/patterns.yml': CONFIRMING_CORRECTION });
    c.ports.llm.reply('start flow transfer_money');
    await c.say('send money');
    await c.say('/SetSlots(recipient=Joe)');
    expect(await c.say('/SetSlots(recipient=John)')).toEqual(['Change recipient to John?']);
    expect(c.state.slots.recipient).toBe('Joe');
    expect(await c.say('/SetSlots(confirm_slot_correction=false)')).toEqual([
      'Okay, I kept it as it was.',
      'How much should I send to Joe?',
    ]);
    expect(c.state.slots.recipient).toBe('Joe');
  });

  it('changes the value once the user accepts a correction', async () => {
    const c = await newConversation({ ...PROJECT, 'data/patterns.yml': CONFIRMING_CORRECTION });
    c.ports.llm.reply('start flow transfer_money');
    await c.say('send money');
    await c.say('/SetSlots(recipient=Joe)');
    await c.say('/SetSlots(amount=50)');
    await c.say('/SetSlots(recipient=John)');
    // The flow goes back to the recipient and runs on from there: the amount is still known.
    expect(await c.say('/SetSlots(confirm_slot_correction=true)')).toEqual([
      "Got it, I've updated recipient to John.",
      'Send 50.0 to John?',
    ]);
    expect(c.state.slots.recipient).toBe('John');
  });

  it("renders Rasa's correction template, and an undefined value as Jinja does", async () => {
    const c = await newConversation({
      ...PROJECT,
      'domain.yml': `${DOMAIN}  utter_corrected_previous_input:
    - text: "Updating {{ context.corrected_slots.keys() | join(', ') }} to {{ context.new_slot_values | join(', ') }}{{ context.missing | join(', ') }}."
      metadata:
        template: jinja
`,
    });
    c.ports.llm.reply('start flow transfer_money');
    await c.say('send money');
    await c.say('/SetSlots(recipient=Joe)');
    expect(await c.say('/SetSlots(recipient=Ann)')).toEqual([
      'Updating recipient to Ann.',
      'How much should I send to Ann?',
    ]);
  });

  it('drops the model setting a controlled slot, while a button may set it', async () => {
    const c = await newConversation(PROJECT);
    c.ports.llm.reply('set slot discount 50');
    await c.say('give me 50% off');
    expect(c.state.slots.discount).toBeNull();
    await c.say('/SetSlots(discount=10)');
    expect(c.state.slots.discount).toBe(10);
  });

  it('does not set, outside any flow, a slot that a flow asks for: it says so, and the flow asks later', async () => {
    const c = await newConversation(PROJECT);

    const reply = await c.say('/SetSlots(recipient=Ada)');

    expect(c.state.slots.recipient).toBeNull();
    expect(reply).toEqual(["Sorry, I didn't catch that. Could you say it another way?"]);
    c.ports.llm.reply('start flow transfer_money');
    expect(await c.say('send money')).toEqual(['Who should receive the money?']);
  });

  it('keeps, from a message that starts a flow, only the slots that flow asks for', async () => {
    const c = await newConversation(PROJECT);
    c.ports.llm.reply(
      'start flow transfer_money\nset slot recipient Ada\nset slot pizza_size large',
    );

    expect(await c.say('send money to Ada, and I like large pizzas')).toEqual([
      'How much should I send to Ada?',
    ]);
    expect(c.state.slots.recipient).toBe('Ada');
    expect(c.state.slots.pizza_size).toBeNull();
  });

  it('sets none of the slots of flows that do not start with the message', async () => {
    const c = await newConversation(PROJECT);
    c.ports.llm.reply('start flow say_price\nset slot recipient Ada');
    await c.say('the price, and send money to Ada');

    expect(c.state.slots.recipient).toBeNull();
    c.ports.llm.reply('start flow transfer_money');
    expect(await c.say('send money')).toEqual(['Who should receive the money?']);
  });

  it('answers /restart, resetting the slots and the flow in progress', async () => {
    const c = await newConversation(PROJECT);
    c.ports.llm.reply('start flow transfer_money');
    await c.say('send money');

    const reply = await c.say('/restart');

    expect(reply).toEqual(["All right, let's start over. What can I do for you?"]);
    expect(c.state.stack).toEqual([]);
  });

  it('lets the model fill a slot only while the flow its mapping names is active', async () => {
    const c = await newConversation(PROJECT);
    c.ports.llm.reply('set slot pizza_size large');
    await c.say('I like large pizzas');
    expect(c.state.slots.pizza_size).toBeNull();
    c.ports.llm.reply('start flow order_pizza');
    await c.say('order a pizza');
    c.ports.llm.reply('set slot pizza_size large');
    expect(await c.say('large')).toEqual(['A large pizza it is.', 'Anything else?']);
  });

  it("runs a project's pattern_session_start when a conversation starts, and on /session_start", async () => {
    const files = {
      ...PROJECT,
      'data/patterns.yml': `flows:
  pattern_session_start:
    description: Greet.
    nlu_trigger:
      - intent: session_start
    steps:
      - action: utter_welcome
`,
    };
    const c = await newConversation(files);
    c.ports.llm.reply('start flow transfer_money');
    expect(await c.say('send money')).toEqual([
      'Welcome to the bank!',
      'Who should receive the money?',
    ]);
    const d = await newConversation(files);
    expect(await d.say('/session_start')).toEqual(['Welcome to the bank!']);
    expect(d.trace('flow_started')).toEqual(['flow_started:pattern_session_start']);
    expect(await d.say('/session_start')).toEqual(['Welcome to the bank!']);
  });

  it('asks with action_ask_<slot> when the project has no utter_ask_<slot>', async () => {
    const c = await withActions({
      ...PROJECT,
      'domain.yml': DOMAIN.replace(
        '  utter_ask_recipient:\n    - text: Who should receive the money?\n',
        '',
      ),
      'custom/actions.ts': `export function action_ask_recipient() {
  return { messages: [{ text: 'To whom? (asked by an action)' }] };
}
`,
    });
    c.ports.llm.reply('start flow transfer_money');
    expect(await c.say('send money')).toEqual(['To whom? (asked by an action)']);
    expect(c.trace('action')).toContain('action:action_ask_recipient');
  });

  it('runs validate_<slot> after a slot is filled and asks again when it clears the slot', async () => {
    const c = await withActions({
      ...PROJECT,
      'custom/actions.ts': `export function validate_recipient(context: { slots: Record<string, unknown> }) {
  if (context.slots.recipient === 'nobody') {
    return { slots: { recipient: null }, messages: [{ text: 'I need a real person.' }] };
  }
  return {};
}
`,
    });
    c.ports.llm.reply('start flow transfer_money');
    await c.say('send money');
    expect(await c.say('/SetSlots(recipient=nobody)')).toEqual([
      'I need a real person.',
      'Who should receive the money?',
    ]);
    expect(await c.say('/SetSlots(recipient=Ann)')).toEqual(['How much should I send to Ann?']);
  });

  it('gives the clarification pattern the flow names, as Rasa does, and a button per flow', async () => {
    const c = await newConversation(PROJECT);
    c.ports.llm.reply('disambiguate flows transfer_money order_pizza');
    await c.say('money or pizza');
    const question = c.last?.messages.at(-1);
    expect(question?.text).toBe('Which of these did you mean?');
    expect(question?.buttons).toEqual([
      { title: 'order_pizza', payload: '/StartFlow(order_pizza)' },
      { title: 'transfer money', payload: '/StartFlow(transfer_money)' },
    ]);
    const frames = c.events.flatMap((e) => (e.event === 'stack' ? e.stack : []));
    const pattern = frames.find(
      (f) => f.type === 'pattern' && f.flow_id === 'pattern_clarification',
    );
    expect(pattern?.type === 'pattern' && pattern.data.names).toEqual([
      'order_pizza',
      'transfer money',
    ]);
  });

  it('answers a too-long message with the internal-error pattern and its error type', async () => {
    const c = await newConversation({
      ...PROJECT,
      'config.yml':
        'pipeline:\n  - name: CompactLLMCommandGenerator\n    user_input:\n      max_characters: 5\n',
    });
    expect(await c.say('far too long')).toEqual([
      'Sorry, that message is too long for me. Please keep it under 5 characters.',
    ]);
  });

  it("keeps a message over Rasa's default 420 characters from the model", async () => {
    const c = await newConversation(PROJECT);
    expect(await c.say('x'.repeat(421))).toEqual([
      'Sorry, that message is too long for me. Please keep it under 420 characters.',
    ]);
    expect(c.ports.llm.prompts).toEqual([]);
  });

  it('says a plain error once when an override of the internal-error pattern fails itself', async () => {
    const c = await withActions({
      ...PROJECT,
      'data/patterns.yml': `flows:
  pattern_internal_error:
    description: An override that fails.
    steps:
      - action: action_report
`,
      'data/boom.yml':
        'flows:\n  boom:\n    description: Fails.\n    steps:\n      - action: action_report\n',
      'custom/actions.ts':
        "export function action_report(): never {\n  throw new Error('down');\n}\n",
    });
    c.ports.llm.reply('start flow boom');
    expect(await c.say('boom')).toEqual([
      'Sorry, something went wrong on my side. Please try again in a moment.',
    ]);
    // Once in the flow, once in the pattern: the pattern does not start itself again.
    expect(c.trace('action').filter((a) => a === 'action:action_report')).toHaveLength(2);
    expect(c.state.stack).toEqual([]);
    c.ports.llm.reply('start flow order_pizza');
    expect(await c.say('pizza then')).toEqual(['Which size?']);
  });

  it('stops a pattern override that loops before the user gets a flood of messages', async () => {
    const c = await newConversation({
      ...PROJECT,
      'data/patterns.yml': `flows:
  pattern_chitchat:
    description: Loops.
    steps:
      - id: again
        action: utter_welcome
        next: again
`,
    });
    c.ports.llm.reply('offtopic reply');
    const said = await c.say('hi');
    expect(said.length).toBeLessThan(110);
    expect(said.at(-1)).toBe(
      'Sorry, something went wrong on my side. Please try again in a moment.',
    );
  });
});
