import { describe, expect, it } from 'vitest';
import { type ActionPort, DialogueEngine } from '../../../src/dialogue/index.js';
import { assistantFrom, Conversation, testPorts } from '../../helpers/dialogue.js';
import type { ProjectFilesSpec } from '../../helpers/project.js';

/** Jinja in flow steps, rendered with the frame's context when the step runs, as in Rasa. */

const DOMAIN = `slots:
  recipient:
    type: text
responses:
  utter_ask_recipient:
    - text: Who should receive the money?
  utter_sent:
    - text: Sent to {recipient}.
  utter_stopped_transfer:
    - text: The transfer is stopped.
  utter_stopped_other:
    - text: Something else is stopped.
`;

const FLOWS = `flows:
  transfer:
    description: Send money.
    steps:
      - collect: recipient
      - action: utter_sent
  chat:
    name: small talk
    description: Chat.
    steps:
      - collect: recipient
`;

async function conversation(patterns: string, actions?: ActionPort) {
  const files: ProjectFilesSpec = {
    'domain.yml': DOMAIN,
    'data/flows.yml': FLOWS,
    'data/patterns.yml': patterns,
  };
  const warnings: string[] = [];
  const ports = { ...testPorts(actions), warn: (message: string) => warnings.push(message) };
  const c = new Conversation(new DialogueEngine(await assistantFrom(files)), ports);
  return { c, warnings };
}

describe('a condition with Jinja in it', () => {
  it('takes the branch its rendered text selects, so a cancel override can tell which flow stopped', async () => {
    const { c } = await conversation(`flows:
  pattern_cancel_flow:
    description: Cancel.
    steps:
      - action: action_cancel_flow
        next:
          - if: "'{{context.canceled_name}}' = 'transfer'"
            then:
              - action: utter_stopped_transfer
                next: END
          - else:
              - action: utter_stopped_other
                next: END
`);
    c.ports.llm.reply('start flow transfer', 'cancel flow', 'start flow chat', 'cancel flow');
    await c.say('send money');
    expect(await c.say('stop')).toEqual(['The transfer is stopped.']);
    await c.say('let us chat');
    expect(await c.say('stop')).toEqual(['Something else is stopped.']);
  });

  it('counts as false, with a warning, when its rendered text does not parse', async () => {
    const { c, warnings } = await conversation(`flows:
  pattern_cancel_flow:
    description: Cancel.
    steps:
      - action: action_cancel_flow
        next:
          - if: "{{context.canceled_name}} is not null"
            then:
              - action: utter_stopped_transfer
                next: END
          - else:
              - action: utter_stopped_other
                next: END
`);
    c.ports.llm.reply('start flow chat', 'cancel flow');
    await c.say('let us chat');
    expect(await c.say('stop')).toEqual(['Something else is stopped.']);
    expect(warnings).toEqual(['a rendered flow condition does not parse; it counts as false']);
  });
});

describe('an action name with Jinja in it', () => {
  it('runs the response or action it renders to, and skips a name nothing defines', async () => {
    const { c, warnings } = await conversation(`flows:
  pattern_cancel_flow:
    description: Cancel.
    steps:
      - action: action_cancel_flow
      - action: "validate_{{context.canceled_name}}"
      - action: "action_audit_{{context.canceled_name}}"
      - action: "utter_stopped_{{context.canceled_name}}"
`);
    c.ports.llm.reply('start flow transfer', 'cancel flow');
    await c.say('send money');
    expect(await c.say('stop')).toEqual(['The transfer is stopped.']);
    // Only the unknown action is worth a warning: a slot need not have a validate action.
    expect(warnings).toEqual(['a flow step names an action nothing defines; the step is skipped']);
    expect(c.trace('action')).not.toContain('action:action_audit_transfer');
  });

  it("runs a project action it renders to, with the frame's context", async () => {
    const ran: string[] = [];
    const actions: ActionPort = {
      has: (name) => name === 'action_audit_transfer',
      run: async (name) => {
        ran.push(name);
        return {};
      },
    };
    const { c } = await conversation(
      `flows:
  pattern_cancel_flow:
    description: Cancel.
    steps:
      - action: action_cancel_flow
      - action: "action_audit_{{context.canceled_name}}"
`,
      actions,
    );
    c.ports.llm.reply('start flow transfer', 'cancel flow');
    await c.say('send money');
    await c.say('stop');
    expect(ran).toEqual(['action_audit_transfer']);
  });
});

describe("Rasa's default pattern_collect_information in a project", () => {
  const RASA_DEFAULT = `flows:
  pattern_collect_information:
    description: Flow for collecting information from users
    name: pattern collect information
    steps:
      - id: start
        action: action_run_slot_rejections
      - action: validate_{{context.collect}}
        next:
          - if: "slots.{{context.collect}} is not null"
            then: END
          - else: ask_collect
      - id: ask_collect
        action: "{{context.utter}}"
      - action: "{{context.collect_action}}"
      - action: action_listen
        next: start
`;

  it('collects a slot without a validate action as before, asking once', async () => {
    const { c, warnings } = await conversation(RASA_DEFAULT);
    c.ports.llm.reply('start flow transfer', 'set slot recipient Ada');
    expect(await c.say('send money')).toEqual(['Who should receive the money?']);
    expect(await c.say('Ada')).toEqual(['Sent to Ada.', 'Can I help you with anything else?']);
    expect(warnings).toEqual([]);
  });

  it("runs the slot's validate action once per answer", async () => {
    const ran: string[] = [];
    const actions: ActionPort = {
      has: (name) => name === 'validate_recipient',
      run: async (name, context) => {
        ran.push(name);
        return context.slots.recipient === 'Bob' ? { slots: { recipient: null } } : {};
      },
    };
    const { c } = await conversation(RASA_DEFAULT, actions);
    c.ports.llm.reply('start flow transfer', 'set slot recipient Bob', 'set slot recipient Ada');
    await c.say('send money');
    expect(await c.say('Bob')).toEqual(['Who should receive the money?']);
    expect(await c.say('Ada')).toEqual(['Sent to Ada.', 'Can I help you with anything else?']);
    expect(ran).toEqual(['validate_recipient', 'validate_recipient']);
  });
});
