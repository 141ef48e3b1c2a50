import { describe, expect, it } from 'vitest';
import type { Command } from '../../../src/dialogue/commands/command.js';
import { parseCommandDsl } from '../../../src/dialogue/commands/parseDsl.js';
import { newConversation } from '../../helpers/dialogue.js';
import { RESEARCHER_PROJECT } from '../../helpers/project.js';

/** Every syntax Rasa's command parsers read: the function style and the DSL, each as Rasa does. */

const SET_AMOUNT: Command = { command: 'set slot', name: 'amount', value: '50' };
const START: Command = { command: 'start flow', flow: 'transfer_money' };
const SEARCH: Command = { command: 'provide info' };
const CANNOT: Command = { command: 'cannot handle', reason: 'cannot_handle_default' };

describe("Rasa's command syntaxes", () => {
  it.each<[string, Command]>([
    ['SetSlot(amount, 50)', SET_AMOUNT],
    ['SetSlot("amount", "50")', SET_AMOUNT],
    ["SetSlot('amount','50')", SET_AMOUNT],
    ['set slot amount 50', SET_AMOUNT],
    ["set slot 'amount' '50'", SET_AMOUNT],
    ['set slot `amount` `50`', SET_AMOUNT],
    ['StartFlow(transfer_money)', START],
    ['StartFlow("transfer_money")', START],
    ['start flow transfer_money', START],
    ['start flow `transfer_money`', START],
    ["1. start flow 'transfer_money'", START],
    ['CancelFlow()', { command: 'cancel flow' }],
    ['cancel flow', { command: 'cancel flow' }],
    ['ChitChat()', { command: 'offtopic reply' }],
    ['offtopic reply', { command: 'offtopic reply' }],
    ['SkipQuestion()', { command: 'skip question' }],
    ['skip question', { command: 'skip question' }],
    ['SearchAndReply()', SEARCH],
    ['provide info', SEARCH],
    ['search and reply', SEARCH],
    ['HumanHandoff()', { command: 'hand over' }],
    ['hand over', { command: 'hand over' }],
    ['RepeatLastBotMessages()', { command: 'repeat message' }],
    ['repeat message', { command: 'repeat message' }],
    ['ContinueAgent()', { command: 'continue agent' }],
    ['continue agent', { command: 'continue agent' }],
    ['RestartAgent(researcher)', { command: 'restart agent', agent: 'researcher' }],
    ['restart agent "researcher"', { command: 'restart agent', agent: 'researcher' }],
    ['CannotHandle()', CANNOT],
    ['cannot handle', CANNOT],
  ])('reads %j', (line, command) => {
    expect(parseCommandDsl(line)).toEqual([command]);
  });

  it.each([
    'Clarify(transfer_money, check_balance)',
    'Clarify("transfer_money", "check_balance")',
    'disambiguate flows transfer_money check_balance',
    'disambiguate flows transfer_money, check_balance.',
  ])('reads %j with the flows sorted, as Rasa offers them', (line) => {
    expect(parseCommandDsl(line)).toEqual([
      { command: 'disambiguate flows', flows: ['check_balance', 'transfer_money'] },
    ]);
  });

  it.each<[string, Command]>([
    ['- search and reply', SEARCH],
    ['2) `cannot handle`', CANNOT],
    ['"provide info"', SEARCH],
    ['* `start flow transfer_money`', START],
  ])('reads %j past the marks and quotes around it', (line, command) => {
    expect(parseCommandDsl(line)).toEqual([command]);
  });

  it('finds function-style commands anywhere in a line, several on one line', () => {
    expect(parseCommandDsl('Actions: StartFlow(transfer_money), SetSlot(amount, 50)')).toEqual([
      SET_AMOUNT,
      START,
    ]);
  });

  it("reads Rasa's null words as no value, and a flow_name slot as starting that flow", () => {
    expect(parseCommandDsl('set slot amount None\nSetSlot(recipient, [missing])')).toEqual([
      { command: 'set slot', name: 'amount', value: null },
      { command: 'set slot', name: 'recipient', value: null },
    ]);
    expect(parseCommandDsl('set slot flow_name transfer_money')).toEqual([START]);
  });
});

describe('the commands of a search and of a message the model cannot handle', () => {
  const PROJECT = {
    'domain.yml': 'responses:\n  utter_done:\n    - text: Done.\n',
    'data/flows.yml':
      'flows:\n  greet:\n    description: Greet.\n    steps:\n      - action: utter_done\n',
  };

  it.each(['SearchAndReply()', 'search and reply', 'provide info'])(
    'start pattern_search for %j',
    async (answer) => {
      const c = await newConversation(PROJECT);
      c.ports.llm.reply(answer);
      expect(await c.say('what are your opening hours?')).toEqual([
        "I'm afraid I can't answer that: I have no knowledge base to look it up in.",
      ]);
      expect(c.trace('flow_started')).toContain('flow_started:pattern_search');
    },
  );

  it.each(['CannotHandle()', 'cannot handle'])(
    "start pattern_cannot_handle with Rasa's default reason for %j",
    async (answer) => {
      const c = await newConversation(PROJECT);
      c.ports.llm.reply(answer);
      expect(await c.say('blorp')).toEqual([
        "Sorry, I didn't catch that. Could you say it another way?",
      ]);
      const frames = c.events.flatMap((e) => (e.event === 'stack' ? e.stack : []));
      const pattern = frames.find((f) => f.flow_id === 'pattern_cannot_handle');
      expect(pattern?.type === 'pattern' && pattern.data.reason).toBe('cannot_handle_default');
    },
  );
});

describe('restart agent with an agent named, as Rasa writes it', () => {
  const PROJECT = {
    ...RESEARCHER_PROJECT,
    'data/flows.yml':
      'flows:\n  research:\n    description: Research.\n    steps:\n      - call: researcher\n',
  };

  it.each<[string, boolean]>([
    ['restart agent researcher', true],
    ['RestartAgent(writer)', false],
  ])(
    'for %j restarts the active agent only when it is the one named',
    async (answer, restarted) => {
      const c = await newConversation(PROJECT);
      c.ports.llm.reply('start flow research', answer);
      c.ports.agents.reply(
        { status: 'input_required', responseMessage: 'What?' },
        { status: 'input_required', responseMessage: 'And now?' },
      );
      await c.say('research');
      await c.say('start over');
      expect(c.ports.agents.invocations[1]?.restarted).toBe(restarted);
    },
  );
});
