import { describe, expect, it } from 'vitest';
import { DialogueEngine } from '../../../src/dialogue/index.js';
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
