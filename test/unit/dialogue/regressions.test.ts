import { describe, expect, it } from 'vitest';
import { replay } from '../../../src/dialogue/index.js';
import { type Conversation, newConversation } from '../../helpers/dialogue.js';
import type { ProjectFilesSpec } from '../../helpers/project.js';

const FILES: ProjectFilesSpec = {
  'endpoints.yml': 'mcp_servers:\n  - name: tools\n    url: http://127.0.0.1:9000/mcp\n',
  'domain.yml': `slots:
  recipient:
    type: text
  amount:
    type: float
  confirmed:
    type: bool
  city:
    type: text
responses:
  utter_ask_recipient:
    - text: Who?
  utter_ask_amount:
    - text: How much?
  utter_ask_confirmed:
    - text: Send {amount} to {recipient}?
  utter_ask_city:
    - text: Which city?
  utter_too_much:
    - text: Too much.
  utter_sent:
    - text: Sent {amount} to {recipient}.
  utter_city:
    - text: City is {city}.
`,
  'data/flows.yml': `flows:
  transfer:
    description: Send money.
    steps:
      - collect: recipient
      - collect: amount
        rejections:
          - if: slots.amount > 1000
            utter: utter_too_much
      - collect: confirmed
      - action: utter_sent
  parent:
    description: Calls ask_city.
    steps:
      - collect: recipient
      - call: ask_city
      - action: utter_sent
  ask_city:
    description: Asks for a city.
    steps:
      - collect: city
      - action: utter_city
  secret:
    description: Never startable.
    if: false
    steps:
      - action: utter_city
  research:
    description: Research.
    steps:
      - call: researcher
`,
  'sub_agents/researcher/config.yml':
    'agent:\n  name: researcher\n  description: Researches.\nconnections:\n  mcp_servers:\n    - name: tools\n',
};

async function start(): Promise<Conversation> {
  return newConversation(FILES);
}

function expectReplayable(c: Conversation): void {
  expect(replay(c.engine.start('tester'), c.events)).toEqual(c.state);
}

describe('dialogue regressions', () => {
  it('sets a slot the flow has not reached yet without jumping ahead', async () => {
    const c = await start();
    c.ports.llm.reply('start flow transfer\nset slot amount 20', 'set slot amount 30');
    expect(await c.say('send 20')).toEqual(['Who?']);
    expect(await c.say('make it 30')).toEqual(['Who?']);
    expect(c.state.slots.amount).toBe(30);
    expectReplayable(c);
  });

  it('checks a value given before its collect step against the rejections', async () => {
    const c = await start();
    c.ports.llm.reply('start flow transfer\nset slot recipient Bob\nset slot amount 5000');
    expect(await c.say('send 5000 to Bob')).toEqual(['Too much.', 'How much?']);
    expect(c.state.slots.amount).toBeNull();
  });

  it('does nothing when the user asks for the flow that called the current one', async () => {
    const c = await start();
    c.ports.llm.reply('start flow parent\nset slot recipient Bob', 'start flow parent');
    expect(await c.say('parent for Bob')).toEqual(['Which city?']);
    expect(await c.say('the parent thing')).toEqual(['Which city?']);
    expect(c.state.stack.map((f) => (f.type === 'agent' ? f.agent_id : f.flow_id))).toEqual([
      'parent',
      'ask_city',
    ]);
  });

  it('keeps the flow when the command model fails, and asks the open question again', async () => {
    const c = await start();
    c.ports.llm.reply('start flow transfer\nset slot recipient Bob', new Error('model down'));
    await c.say('send to Bob');
    expect(await c.say('100')).toEqual([
      'Sorry, something went wrong on my side. Please try again in a moment.',
      'How much?',
    ]);
    expect(c.state.slots.recipient).toBe('Bob');
  });

  it('does not mark the second of two new flows as interrupted', async () => {
    const c = await start();
    c.ports.llm.reply('start flow ask_city\nstart flow transfer\nset slot city Rome');
    expect(await c.say('city and money')).toEqual(['City is Rome.', 'Who?']);
    expect(c.trace('flow_interrupted')).toEqual([]);
  });

  it('forgets the slots of a cancelled flow', async () => {
    const c = await start();
    c.ports.llm.reply(
      'start flow transfer\nset slot recipient Bob',
      'cancel flow',
      'start flow transfer',
    );
    await c.say('send to Bob');
    await c.say('cancel');
    expect(await c.say('send money')).toEqual(['Who?']);
  });

  it('resets the slots of called flows when the calling flow ends', async () => {
    const c = await start();
    c.ports.llm.reply('start flow parent\nset slot recipient Bob\nset slot city Oslo');
    await c.say('go');
    expect(c.state.slots.city).toBeNull();
  });

  it('refuses to start a flow whose guard is false', async () => {
    const c = await start();
    c.ports.llm.reply('start flow secret');
    expect(await c.say('secret please')).toEqual([
      "Sorry, I didn't catch that. Could you say it another way?",
    ]);
    expect(await c.say('/StartFlow(secret)')).toEqual([
      "Sorry, I didn't catch that. Could you say it another way?",
    ]);
  });

  it('offers only startable flows when disambiguating', async () => {
    const c = await start();
    c.ports.llm.reply('disambiguate flows transfer made_up pattern_completed secret parent');
    await c.say('something');
    expect(c.last?.messages[0]?.buttons?.map((b) => b.payload)).toEqual([
      '/StartFlow(parent)',
      '/StartFlow(transfer)',
    ]);
  });

  it('answers a cancel with nothing running as a message it cannot handle', async () => {
    const c = await start();
    c.ports.llm.reply('cancel flow');
    expect(await c.say('cancel')).toEqual([
      "Sorry, I didn't catch that. Could you say it another way?",
    ]);
  });

  it('resumes the interrupted flow when the user asks for it during the offer to go back', async () => {
    const c = await start();
    c.ports.llm.reply(
      'start flow transfer',
      'start flow ask_city\nset slot city Rome',
      'start flow transfer',
    );
    await c.say('send');
    expect(await c.say('what about Rome')).toEqual([
      'City is Rome.',
      'Shall we get back to transfer?',
    ]);
    expect(await c.say('back to the transfer')).toEqual(['Who?']);
    expect(c.trace('flow_resumed')).toEqual(['flow_resumed:transfer']);
    expect(c.state.stack.map((f) => (f.type === 'agent' ? f.agent_id : f.flow_id))).toEqual([
      'transfer',
    ]);
    expectReplayable(c);
  });

  it('does not hand the "yes, go back" message to a resumed agent', async () => {
    const c = await start();
    c.ports.llm.reply('start flow research', 'start flow ask_city\nset slot city Rome');
    c.ports.agents.reply(
      { status: 'input_required', responseMessage: 'Topic?' },
      { status: 'input_required', responseMessage: 'Topic, again?' },
    );
    await c.say('research');
    await c.say('city Rome');
    await c.say('/SetSlots(continue_interrupted_flow_confirmation=true)');
    expect(c.ports.agents.invocations[1]?.input.userMessage).toBe('');
  });

  it('stops the turn when it is aborted, without retrying or cancelling', async () => {
    const c = await start();
    const controller = new AbortController();
    c.ports.llm.reply('start flow research');
    c.ports.agents.reply(() => {
      controller.abort(new Error('deadline'));
      throw new Error('aborted');
    });
    await expect(
      c.engine.handleMessage(c.state, { text: 'research' }, c.ports, { signal: controller.signal }),
    ).rejects.toThrow('aborted');
    expect(c.ports.agents.invocations).toHaveLength(1);
  });
});

describe('a project pattern override that fails', () => {
  it('never lets an exception escape a turn', async () => {
    const c = await newConversation({
      ...FILES,
      'data/patterns.yml': `flows:
  pattern_chitchat:
    description: A broken override that loops.
    steps:
      - id: again
        noop: true
        next: again
`,
    });
    c.ports.llm.reply('offtopic reply', 'offtopic reply');
    expect(await c.say('hi')).toEqual([
      'Sorry, something went wrong on my side. Please try again in a moment.',
    ]);
    expect(await c.say('hi again')).toEqual([
      'Sorry, something went wrong on my side. Please try again in a moment.',
    ]);
    expect(c.state.stack).toEqual([]);
  });
});
