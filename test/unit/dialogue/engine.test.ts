import { describe, expect, it } from 'vitest';
import type { AgentFrame, ConversationState } from '../../../src/dialogue/index.js';
import { type Conversation, newConversation } from '../../helpers/dialogue.js';
import type { ProjectFilesSpec } from '../../helpers/project.js';

const PROJECT: ProjectFilesSpec = {
  'endpoints.yml': `mcp_servers:
  - name: bank
    url: http://127.0.0.1:9000/mcp
`,
  'domain.yml': `intents:
  - check_balance
slots:
  recipient:
    type: text
  amount:
    type: float
  confirmed:
    type: bool
  balance:
    type: float
  account:
    type: categorical
    values: [checking, savings]
  dealer:
    type: text
  time:
    type: text
responses:
  utter_ask_recipient:
    - text: Who should receive the money?
  utter_ask_amount:
    - text: How much should I send to {recipient}?
  utter_ask_confirmed:
    - text: Send {amount} to {recipient}?
      buttons:
        - title: Yes
          payload: /SetSlots(confirmed=true)
        - title: No
          payload: /SetSlots(confirmed=false)
  utter_transfer_done:
    - text: Sent {amount} to {recipient}.
  utter_transfer_cancelled:
    - text: Okay, nothing was sent.
  utter_amount_too_high:
    - text: That is more than you can send at once.
  utter_ask_account:
    - text: Which account?
  utter_balance:
    - text: Your {account} balance is {balance}.
  utter_booked:
    - text: Booked with {dealer} at {time}.
`,
  'data/flows.yml': `flows:
  transfer_money:
    description: Send money to someone.
    steps:
      - collect: recipient
      - collect: amount
        rejections:
          - if: slots.amount > 1000
            utter: utter_amount_too_high
      - collect: confirmed
        ask_before_filling: true
        next:
          - if: slots.confirmed
            then:
              - action: utter_transfer_done
                next: END
          - else:
              - action: utter_transfer_cancelled
                next: END
  check_balance:
    description: Tell the user the balance of an account.
    nlu_trigger:
      - intent: check_balance
    steps:
      - collect: account
      - call: get_balance
        mcp_server: bank
        mapping:
          input:
            - param: account
              slot: account
          output:
            - slot: balance
              value: result.structuredContent.balance
      - action: utter_balance
  book_visit:
    description: Book a visit at a dealer.
    steps:
      - call: booking_agent
        exit_if:
          - slots.dealer is not null and slots.time is not null
      - action: utter_booked
  test_drive:
    description: Book a test drive at a dealer.
    steps:
      - call: booking_agent
        exit_if:
          - slots.dealer is not null
          - slots.time is not null
      - action: utter_booked
  research:
    description: Research anything.
    steps:
      - call: researcher
  goodbye_transfer:
    description: Hand over to the transfer flow.
    steps:
      - link: transfer_money
`,
  'sub_agents/booking_agent/config.yml': `agent:
  name: booking_agent
  description: Finds a dealer and a time.
connections:
  mcp_servers:
    - name: bank
`,
  'sub_agents/researcher/config.yml': `agent:
  name: researcher
  description: Researches things.
configuration:
  llm:
    model: gpt-test
connections:
  mcp_servers:
    - name: bank
`,
};

async function start(): Promise<Conversation> {
  return newConversation(PROJECT);
}

const INTERNAL_ERROR = 'Sorry, something went wrong on my side. Please try again in a moment.';

/** Why the internal-error pattern ran, as the conversation's stack events recorded it. */
function internalErrorReasons(c: Conversation): unknown[] {
  const reasons = new Map<string, unknown>();
  for (const event of c.events) {
    if (event.event !== 'stack') continue;
    for (const frame of event.stack) {
      if (frame.type === 'pattern' && frame.flow_id === 'pattern_internal_error') {
        reasons.set(frame.frame_id, frame.data.reason);
      }
    }
  }
  return [...reasons.values()];
}

function agentFrameOf(state: ConversationState): AgentFrame | undefined {
  return state.stack.find((f): f is AgentFrame => f.type === 'agent');
}

describe('DialogueEngine', () => {
  it('runs a flow from start to end: collect, templating, buttons, branches', async () => {
    const c = await start();
    c.ports.llm.reply(
      'start flow transfer_money',
      'set slot recipient Alice',
      'set slot amount 50',
    );
    expect(await c.say('I want to send money')).toEqual(['Who should receive the money?']);
    expect(await c.say('Alice')).toEqual(['How much should I send to Alice?']);
    expect(await c.say('50 dollars')).toEqual(['Send 50.0 to Alice?']);
    expect(c.last?.messages[0]?.buttons?.map((b) => b.payload)).toEqual([
      '/SetSlots(confirmed=true)',
      '/SetSlots(confirmed=false)',
    ]);
    expect(await c.say('/SetSlots(confirmed=true)')).toEqual([
      'Sent 50.0 to Alice.',
      'Can I help you with anything else?',
    ]);
    expect(c.ports.llm.remaining).toBe(0);
    expect(c.trace('flow_started', 'flow_completed')).toEqual([
      'flow_started:pattern_session_start',
      'flow_completed:pattern_session_start',
      'flow_started:transfer_money',
      'flow_completed:transfer_money',
      'flow_started:pattern_completed',
      'flow_completed:pattern_completed',
    ]);
    // Slots the flow collected are forgotten when it ends.
    expect(c.state.slots.recipient).toBeNull();
    expect(c.state.stack).toEqual([]);
  });

  it('takes the else branch', async () => {
    const c = await start();
    c.ports.llm.reply('start flow transfer_money\nset slot recipient Bob\nset slot amount 20');
    expect(await c.say('send Bob 20')).toEqual(['Send 20.0 to Bob?']);
    expect(await c.say('/SetSlots(confirmed=false)')).toEqual([
      'Okay, nothing was sent.',
      'Can I help you with anything else?',
    ]);
  });

  it('rejects a value and asks again', async () => {
    const c = await start();
    c.ports.llm.reply(
      'start flow transfer_money\nset slot recipient Bob',
      'set slot amount 5000',
      'set slot amount 500',
    );
    await c.say('send money to Bob');
    expect(await c.say('5000')).toEqual([
      'That is more than you can send at once.',
      'How much should I send to Bob?',
    ]);
    expect(await c.say('500')).toEqual(['Send 500.0 to Bob?']);
  });

  it('corrects an earlier answer and runs the following steps again', async () => {
    const c = await start();
    c.ports.llm.reply(
      'start flow transfer_money\nset slot recipient Bob\nset slot amount 20',
      'set slot recipient Carol',
    );
    await c.say('send 20 to Bob');
    expect(await c.say('actually to Carol')).toEqual([
      "Got it, I've updated recipient to Carol.",
      'Send 20.0 to Carol?',
    ]);
    expect(c.trace('flow_started')).toContain('flow_started:pattern_correction');
  });

  it('cancels the current flow', async () => {
    const c = await start();
    c.ports.llm.reply('start flow transfer_money', 'cancel flow');
    await c.say('send money');
    expect(await c.say('forget it')).toEqual(["All right, I've stopped transfer_money."]);
    expect(c.trace('flow_cancelled')).toEqual(['flow_cancelled:transfer_money']);
    expect(c.state.stack).toEqual([]);
  });

  it('acts on commands the channel gives with the message, without calling the model', async () => {
    const c = await start();
    c.ports.llm.reply('start flow transfer_money');
    await c.say('send money');
    const result = await c.engine.handleMessage(
      c.state,
      { text: '', commands: [{ command: 'cancel flow' }] },
      c.ports,
    );
    expect(result.messages.map((m) => m.text)).toEqual(["All right, I've stopped transfer_money."]);
    expect(result.state.stack).toEqual([]);
    expect(c.ports.llm.prompts).toHaveLength(1);
  });

  it('digresses to another flow and offers to go back', async () => {
    const c = await start();
    c.ports.llm.reply('start flow transfer_money\nset slot recipient Bob');
    expect(await c.say('send money to Bob')).toEqual(['How much should I send to Bob?']);
    c.ports.mcp.reply({ isError: false, structuredContent: { balance: 1234.5 } });
    expect(await c.say('/check_balance')).toEqual(['Which account?']);
    expect(await c.say('/SetSlots(account=savings)')).toEqual([
      'Your savings balance is 1234.5.',
      'Shall we get back to transfer_money?',
    ]);
    expect(c.ports.mcp.calls[0]).toMatchObject({
      serverName: 'bank',
      toolName: 'get_balance',
      arguments: { account: 'savings' },
    });
    expect(await c.say('/SetSlots(continue_interrupted_flow_confirmation=true)')).toEqual([
      'How much should I send to Bob?',
    ]);
    expect(c.trace('flow_interrupted', 'flow_resumed')).toEqual([
      'flow_interrupted:transfer_money',
      'flow_resumed:transfer_money',
    ]);
  });

  it('drops the interrupted flow when the user does not want to go back', async () => {
    const c = await start();
    c.ports.llm.reply('start flow transfer_money');
    await c.say('send money');
    c.ports.mcp.reply({ isError: false, structuredContent: { balance: 3 } });
    await c.say('/check_balance');
    await c.say('/SetSlots(account=checking)');
    expect(await c.say('/SetSlots(continue_interrupted_flow_confirmation=false)')).toEqual([
      "Okay, let's leave transfer_money then.",
    ]);
    expect(c.trace('flow_cancelled')).toEqual(['flow_cancelled:transfer_money']);
  });

  it('acts on /SetSlots and /intent without calling the model', async () => {
    const c = await start();
    c.ports.mcp.reply({ isError: false, structuredContent: { balance: 10.5 } });
    expect(await c.say('/check_balance')).toEqual(['Which account?']);
    expect(await c.say('/SetSlots(account=CHECKING)')).toEqual([
      'Your checking balance is 10.5.',
      'Can I help you with anything else?',
    ]);
    expect(c.ports.llm.prompts).toEqual([]);
  });

  it('answers an unparseable model output with the cannot-handle pattern', async () => {
    const c = await start();
    c.ports.llm.reply('I think the user wants to bake a cake!');
    expect(await c.say('let us bake')).toEqual([
      "Sorry, I didn't catch that. Could you say it another way?",
    ]);
    expect(c.last?.commands).toEqual([{ command: 'cannot handle', reason: expect.any(String) }]);
  });

  it('re-asks the open question after a message it cannot handle', async () => {
    const c = await start();
    c.ports.llm.reply('start flow transfer_money', '');
    await c.say('send money');
    expect(await c.say('hmm')).toEqual([
      "Sorry, I didn't catch that. Could you say it another way?",
      'Who should receive the money?',
    ]);
  });

  it('ends the flow with the internal-error pattern when a tool call fails', async () => {
    const c = await start();
    c.ports.mcp.reply({ isError: true, content: [{ type: 'text', text: 'boom' }] });
    await c.say('/check_balance');
    expect(await c.say('/SetSlots(account=savings)')).toEqual([
      'Sorry, something went wrong on my side. Please try again in a moment.',
    ]);
    expect(c.trace('flow_cancelled')).toEqual(['flow_cancelled:check_balance']);
    expect(c.state.stack).toEqual([]);
  });

  it('answers with the internal-error pattern when the model fails', async () => {
    const c = await start();
    c.ports.llm.reply(new Error('model down'));
    expect(await c.say('hello')).toEqual([
      'Sorry, something went wrong on my side. Please try again in a moment.',
    ]);
  });

  it('follows a link to another flow', async () => {
    const c = await start();
    c.ports.llm.reply('start flow goodbye_transfer');
    expect(await c.say('go')).toEqual(['Who should receive the money?']);
    expect(c.trace('flow_started', 'flow_completed')).toEqual([
      'flow_started:pattern_session_start',
      'flow_completed:pattern_session_start',
      'flow_started:goodbye_transfer',
      'flow_completed:goodbye_transfer',
      'flow_started:transfer_money',
    ]);
  });

  it('repeats only what the assistant said since the latest user message', async () => {
    const c = await start();
    c.ports.llm.reply('offtopic reply', 'start flow transfer_money', 'repeat message');
    await c.say('how are you?');
    expect(await c.say('send money')).toEqual(['Who should receive the money?']);
    // The latest turn's question, then the open collect step asks it again; no small talk.
    expect(await c.say('sorry, what?')).toEqual([
      'Who should receive the money?',
      'Who should receive the money?',
    ]);
  });

  it('handles small talk, hand-over, repetition and ambiguity with patterns', async () => {
    const c = await start();
    c.ports.llm.reply(
      'offtopic reply',
      'repeat message',
      'hand over',
      'disambiguate flows transfer_money check_balance',
    );
    expect(await c.say('how are you?')).toEqual([
      "I'm best at the tasks I was built for, so I can't help with that one. What can I do for you?",
    ]);
    expect(await c.say('say that again')).toEqual([
      "I'm best at the tasks I was built for, so I can't help with that one. What can I do for you?",
    ]);
    expect(await c.say('human please')).toEqual([
      "I can't connect you to a person right now, but I'll do my best to help. What do you need?",
    ]);
    expect(await c.say('money')).toEqual(['Which of these did you mean?']);
    expect(c.last?.messages[0]?.buttons).toEqual([
      { title: 'check_balance', payload: '/StartFlow(check_balance)' },
      { title: 'transfer_money', payload: '/StartFlow(transfer_money)' },
    ]);
    expect(await c.say('/StartFlow(transfer_money)')).toEqual(['Who should receive the money?']);
  });
});

describe('DialogueEngine with sub agents', () => {
  it('hands the conversation to an agent until it completes, then continues the flow', async () => {
    const c = await start();
    c.ports.llm.reply('start flow research', '');
    c.ports.agents.reply(
      { status: 'input_required', responseMessage: 'What should I research?' },
      { status: 'completed', responseMessage: 'Here is what I found.' },
    );
    expect(await c.say('research cars')).toEqual(['What should I research?']);
    expect(await c.say('electric SUVs')).toEqual([
      'Here is what I found.',
      'Can I help you with anything else?',
    ]);
    const [first, second] = c.ports.agents.invocations;
    expect(first?.input.userMessage).toBe('research cars');
    expect(first?.exitIf).toBeUndefined();
    expect(first).toMatchObject({ resumed: false, restarted: false });
    expect(second?.input.userMessage).toBe('electric SUVs');
    expect(second?.input.conversationHistory).toBe(
      'USER: research cars\nAI: What should I research?\nUSER: electric SUVs',
    );
    // The project's slots reach the agent; the patterns' own do not.
    const names = first?.input.slots.map((slot) => slot.name) ?? [];
    expect(names.length).toBeGreaterThan(0);
    expect(names).not.toContain('continue_interrupted');
    expect(first?.input.metadata).toMatchObject({
      sender_id: 'tester',
      conversation_id: 'tester',
      model_id: 'gpt-test',
    });
    expect(c.trace('agent_started', 'agent_completed')).toEqual([
      'agent_started:researcher',
      'agent_completed:researcher',
    ]);
  });

  it('completes a task-specific agent silently once its exit conditions hold', async () => {
    const c = await start();
    c.ports.llm.reply('start flow book_visit', '');
    c.ports.agents.reply(
      { status: 'input_required', responseMessage: 'Which dealer?' },
      {
        status: 'input_required',
        responseMessage: 'anything else?',
        events: [
          { event: 'slot', name: 'dealer', value: 'Autohaus' },
          { event: 'slot', name: 'time', value: '10:00' },
        ],
      },
    );
    expect(await c.say('book a visit')).toEqual(['Which dealer?']);
    expect(await c.say('Autohaus at ten')).toEqual([
      'Booked with Autohaus at 10:00.',
      'Can I help you with anything else?',
    ]);
    expect(c.ports.agents.invocations[0]?.exitIf).toEqual([
      'slots.dealer is not null and slots.time is not null',
    ]);
  });

  it('completes a task-specific agent without invoking it once the user fills its exit conditions', async () => {
    const c = await start();
    c.ports.llm.reply('start flow book_visit');
    c.ports.agents.reply({ status: 'input_required', responseMessage: 'Which dealer?' });
    await c.say('book a visit');
    expect(await c.say('/SetSlots(dealer=Autohaus, time=10:00)')).toEqual([
      'Booked with Autohaus at 10:00.',
      'Can I help you with anything else?',
    ]);
    expect(c.ports.agents.invocations).toHaveLength(1);
    expect(c.trace('agent_completed')).toEqual(['agent_completed:booking_agent']);
  });

  it('keeps a task-specific agent while only some of its exit conditions hold', async () => {
    const c = await start();
    c.ports.llm.reply('start flow test_drive');
    c.ports.agents.reply({
      status: 'input_required',
      responseMessage: 'At what time?',
      events: [{ event: 'slot', name: 'dealer', value: 'Autohaus' }],
    });
    expect(await c.say('book a test drive at Autohaus')).toEqual(['At what time?']);
    expect(agentFrameOf(c.state)?.status).toBe('input_required');
    expect(c.trace('agent_completed')).toEqual([]);
  });

  it('says nothing for an agent that answers without a message', async () => {
    const c = await start();
    c.ports.llm.reply('start flow research', '');
    c.ports.agents.reply({ status: 'input_required' }, { status: 'completed' });
    expect(await c.say('research')).toEqual([]);
    expect(agentFrameOf(c.state)).not.toHaveProperty('session');
    expect(await c.say('cars')).toEqual(['Can I help you with anything else?']);
  });

  it("hands an agent's session ids back to it on its next invocations", async () => {
    const c = await start();
    c.ports.llm.reply('start flow research', '', '');
    c.ports.agents.reply(
      {
        status: 'input_required',
        responseMessage: 'Which topic?',
        metadata: {
          context_id: 'ctx-1',
          task_id: 'task-1',
          question_id: 'q-1',
          trace_id: 'not a session id',
        },
      },
      // A new task in the same context; a context id that is not text is ignored.
      {
        status: 'input_required',
        responseMessage: 'Which year?',
        metadata: { context_id: 42, task_id: 'task-2' },
      },
      { status: 'completed', responseMessage: 'Done.' },
    );
    await c.say('research');
    await c.say('cars');
    await c.say('2024');
    const [first, second, third] = c.ports.agents.invocations.map((i) => i.input.metadata);
    expect(first).not.toHaveProperty('context_id');
    expect(second).toMatchObject({ context_id: 'ctx-1', task_id: 'task-1', question_id: 'q-1' });
    expect(second).not.toHaveProperty('trace_id');
    expect(third).toMatchObject({ context_id: 'ctx-1', task_id: 'task-2' });
    // The id of a question goes with its answer only; the second question named none.
    expect(third).not.toHaveProperty('question_id');
  });

  it("passes the turn's abort signal and deadline to the agent", async () => {
    const c = await start();
    c.ports.llm.reply('start flow research');
    c.ports.agents.reply({ status: 'input_required', responseMessage: 'What?' });
    const controller = new AbortController();
    const deadline = Date.UTC(2030, 0, 1);
    await c.engine.handleMessage(c.state, { text: 'research' }, c.ports, {
      signal: controller.signal,
      deadline,
    });
    const [invocation] = c.ports.agents.invocations;
    expect(invocation?.signal).toBe(controller.signal);
    expect(invocation?.deadline).toBe(deadline);
  });

  it('interrupts an agent for a digression and resumes it afterwards', async () => {
    const c = await start();
    c.ports.llm.reply('start flow research');
    c.ports.agents.reply({ status: 'input_required', responseMessage: 'What should I research?' });
    await c.say('research');
    c.ports.mcp.reply({ isError: false, structuredContent: { balance: 7.5 } });
    expect(await c.say('/check_balance')).toEqual(['Which account?']);
    expect(await c.say('/SetSlots(account=savings)')).toEqual([
      'Your savings balance is 7.5.',
      'Shall we get back to research?',
    ]);
    c.ports.agents.reply((invocation) => ({
      status: 'input_required',
      responseMessage: invocation.resumed ? 'Where were we: what should I research?' : 'unexpected',
    }));
    expect(await c.say('/SetSlots(continue_interrupted_flow_confirmation=true)')).toEqual([
      'Where were we: what should I research?',
    ]);
    expect(c.ports.agents.invocations[1]?.input.metadata).toMatchObject({
      resumed: true,
      last_message: 'What should I research?',
    });
    expect(
      c.trace('agent_interrupted', 'agent_resumed', 'flow_interrupted', 'flow_resumed'),
    ).toEqual([
      'flow_interrupted:research',
      'agent_interrupted:researcher',
      'flow_resumed:research',
      'agent_resumed:researcher',
    ]);
  });

  it('cancels the agent with its flow', async () => {
    const c = await start();
    c.ports.llm.reply('start flow research', 'cancel flow');
    c.ports.agents.reply({ status: 'input_required', responseMessage: 'What?' });
    await c.say('research');
    expect(await c.say('stop')).toEqual(["All right, I've stopped research."]);
    expect(c.trace('agent_cancelled', 'flow_cancelled')).toEqual([
      'agent_cancelled:researcher',
      'flow_cancelled:research',
    ]);
  });

  it('answers the messages held while an agent worked when the user cancels its flow', async () => {
    const c = await start();
    const ports = {
      ...c.ports,
      agents: { invoke: async () => ({ status: 'pending' as const, runId: 'run-1' }) },
    };
    // The held message is read when it comes, and again when it is answered.
    c.ports.llm.reply(
      'start flow research',
      'start flow transfer_money',
      'cancel flow',
      'start flow transfer_money',
    );
    const started = await c.engine.handleMessage(c.state, { text: 'research cars' }, ports);
    const held = await c.engine.handleMessage(started.state, { text: 'send money' }, ports);
    expect(held.messages.map((m) => m.text)).toEqual([
      "I'm still working on your request. I'll let you know as soon as it's done.",
    ]);
    const cancelled = await c.engine.handleMessage(held.state, { text: 'stop that' }, ports);
    expect(cancelled.messages.map((m) => m.text)).toEqual([
      "All right, I've stopped research.",
      'Who should receive the money?',
    ]);
    expect(cancelled.state.stack.some((f) => f.type === 'agent')).toBe(false);
    // Logged when it came; answering it logs no second user event.
    expect(cancelled.events.filter((e) => e.event === 'user')).toHaveLength(1);
  });

  it('passes the channel metadata of the message to the agent', async () => {
    const c = await start();
    c.ports.llm.reply('start flow research');
    c.ports.agents.reply({ status: 'input_required', responseMessage: 'What?' });
    const result = await c.engine.handleMessage(
      c.state,
      { text: 'research', metadata: { locale: 'de' } },
      c.ports,
    );
    expect(result.messages.map((m) => m.text)).toEqual(['What?']);
    expect(c.ports.agents.invocations[0]?.input.metadata.message_metadata).toEqual({
      locale: 'de',
    });
  });

  it('restarts the agent on request', async () => {
    const c = await start();
    c.ports.llm.reply('start flow research', 'restart agent');
    c.ports.agents.reply(
      { status: 'input_required', responseMessage: 'What?' },
      { status: 'input_required', responseMessage: 'Starting over: what?' },
    );
    await c.say('research');
    expect(await c.say('start over')).toEqual(['Starting over: what?']);
    expect(c.ports.agents.invocations[1]?.restarted).toBe(true);
  });

  it('cancels the flow with the internal-error pattern when the agent fails', async () => {
    const c = await start();
    c.ports.llm.reply('start flow research');
    c.ports.agents.reply(new Error('connection reset'));
    expect(await c.say('research')).toEqual([
      'Sorry, something went wrong on my side. Please try again in a moment.',
    ]);
    expect(c.ports.agents.invocations).toHaveLength(1);
    expect(c.trace('agent_cancelled', 'flow_cancelled')).toEqual([
      'agent_cancelled:researcher',
      'flow_cancelled:research',
    ]);
    expect(internalErrorReasons(c)).toEqual(['connection reset']);
  });

  it.each([
    [{ status: 'recoverable_error', errorMessage: 'rate limited' }, 'rate limited'],
    [{ status: 'fatal_error', errorMessage: 'bad credentials' }, 'bad credentials'],
    [{ status: 'fatal_error' }, 'sub agent researcher failed'],
  ] as const)(
    'cancels the flow when the agent reports %j, recording why',
    async (reply, reason) => {
      const c = await start();
      c.ports.llm.reply('start flow research');
      c.ports.agents.reply(reply);
      expect(await c.say('research')).toEqual([INTERNAL_ERROR]);
      expect(c.trace('flow_cancelled')).toEqual(['flow_cancelled:research']);
      expect(internalErrorReasons(c)).toEqual([reason]);
    },
  );

  it('cancels the flow of an agent that no longer exists, without invoking it', async () => {
    const c = await start();
    c.ports.llm.reply('start flow research', '');
    c.ports.agents.reply({ status: 'input_required', responseMessage: 'What?' });
    await c.say('research');
    // A new deploy dropped the agent while the conversation waited for it.
    c.state = {
      ...c.state,
      stack: c.state.stack.map((f) => (f.type === 'agent' ? { ...f, agent_id: 'retired' } : f)),
    };
    expect(await c.say('electric cars')).toEqual([INTERNAL_ERROR]);
    expect(c.ports.agents.invocations).toHaveLength(1);
    expect(internalErrorReasons(c)).toEqual(['sub agent retired does not exist']);
    expect(c.state.stack).toEqual([]);
  });
});
