import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compileTemplate, renderTemplate } from '../../../src/prompts/environment.js';
import { newConversation } from '../../helpers/dialogue.js';

/**
 * What Jinja2 renders, as Rasa does, is in golden/ (made by golden/make_golden.py, which says how
 * to make them again); here Switchboard renders the same templates and must match byte for byte.
 */
const GOLDEN = path.join(path.dirname(fileURLToPath(import.meta.url)), 'golden');
const PROJECTS = path.resolve(GOLDEN, '../../../../../shared/rasa-projects');

const golden = (name: string) => readFile(path.join(GOLDEN, name), 'utf8');
const templates = JSON.parse(await golden('templates.json')) as Record<string, string>;

/**
 * The conversation whose variables golden/scenario.json holds, as Rasa's command generator gives
 * them: a float, a categorical slot whose values need both kinds of quotes, a bool, a slot
 * without a description, and a flow description with quotes and a dash beyond ASCII.
 */
const PROJECT = {
  'domain.yml': `slots:
  recipient:
    type: text
  amount:
    type: float
  currency:
    type: categorical
    values: [EUR, usd, "other's"]
  confirmed:
    type: bool
  account:
    type: categorical
    values: [checking, savings]
responses:
  utter_ask_recipient:
    - text: To whom?
  utter_ask_amount:
    - text: How much?
  utter_ask_currency:
    - text: Which currency?
  utter_ask_confirmed:
    - text: Shall I?
  utter_ask_account:
    - text: Which account?
  utter_done:
    - text: Done.
`,
  'data/flows.yml': `flows:
  transfer_money:
    description: 'Send money to a "friend" – at once'
    steps:
      - collect: recipient
        description: 'who gets the money, e.g. "Ada"'
      - collect: amount
        description: how much, in the currency below
      - collect: currency
        description: the currency
      - collect: confirmed
      - action: utter_done
  check_balance:
    description: Check the balance of an account
    steps:
      - collect: account
      - action: utter_done
`,
  'config.yml':
    'pipeline:\n  - name: CompactLLMCommandGenerator\n    prompt_template: prompts/commands.jinja2\n',
};

describe('prompt templates rendered as Jinja2 renders them for Rasa', () => {
  it('prints None, booleans, lists and mappings as Python does, and JSON as json.dumps does', async () => {
    const template = compileTemplate(await golden('constructs.jinja2'), 'constructs.jinja2');
    const variables = JSON.parse(await golden('constructs.json')) as Record<string, unknown>;
    expect(renderTemplate(template, variables)).toBe(await golden('constructs.txt'));
  });

  it.each(Object.entries(templates))(
    "renders %s's command-generator prompt as Rasa does, before and inside a flow",
    async (name, file) => {
      const text = await readFile(path.join(PROJECTS, file), 'utf8');
      const c = await newConversation({ ...PROJECT, 'prompts/commands.jinja2': text });
      c.ports.llm.reply(
        'start flow transfer_money\nset slot recipient Ada\nset slot amount 50',
        'set slot currency EUR',
      );
      expect(await c.say('send 50 to Ada')).toEqual(['Which currency?']);
      await c.say('in euros');
      const [before, inside] = c.ports.llm.prompts;
      expect(before).toBe(await golden(`${name}.turn1.txt`));
      expect(inside).toBe(await golden(`${name}.turn2.txt`));
    },
  );
});
