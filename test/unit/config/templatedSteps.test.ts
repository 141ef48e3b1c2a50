import { describe, expect, it } from 'vitest';
import { errorLines, loadProject } from '../../helpers/project.js';

/** Rasa's default pattern_collect_information, as a project pastes it in. */
const RASA_COLLECT_PATTERN = `  pattern_collect_information:
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

const RASA_VALIDATE_PATTERN = `  pattern_validate_slot:
    description: Flow for running validations on slots
    name: pattern validate slot
    steps:
      - id: start
        action: action_run_slot_rejections
        next:
          - if: "slots.{{context.validate}} is not null"
            then: END
          - else: ask_refill
      - id: ask_refill
        action: "{{context.refill_utter}}"
      - action: "{{context.refill_action}}"
      - action: action_listen
        next: start
`;

const notesOf = (result: { notes: readonly { line: number; message: string }[] }) =>
  result.notes.map((n) => `${n.line}: ${n.message}`);

describe('Jinja in flow steps', () => {
  it("loads Rasa's default collect and validate patterns pasted into a project, without a note on them", async () => {
    const { dir, result } = await loadProject({
      'data/patterns.yml': `flows:\n${RASA_COLLECT_PATTERN}${RASA_VALIDATE_PATTERN}`,
    });
    expect(errorLines(dir, result)).toEqual([]);
    expect(notesOf(result).filter((n) => /pattern_(collect|validate)/.test(n))).toEqual([]);
  });

  it('notes an override of pattern_collect_information whose steps differ, as they do not run', async () => {
    const changed = RASA_COLLECT_PATTERN.replace(
      '      - id: ask_collect\n',
      '      - action: utter_done\n      - id: ask_collect\n',
    );
    const { dir, result } = await loadProject({ 'data/patterns.yml': `flows:\n${changed}` });
    expect(errorLines(dir, result)).toEqual([]);
    expect(notesOf(result)).toContainEqual(
      expect.stringMatching(
        /^2: flow "pattern_collect_information" overrides Rasa's default with other steps, which Switchboard does not run: a collect step asks/,
      ),
    );
  });

  it('accepts templated action names and conditions in any flow, with one note on the flow', async () => {
    const { dir, result } = await loadProject({
      'data/patterns.yml': `flows:
  pattern_cancel_flow:
    description: Cancel.
    steps:
      - action: action_cancel_flow
        next:
          - if: "'{{context.canceled_name}}' = 'greet'"
            then:
              - action: "utter_{{ 'done' }}"
                next: END
          - else: END
`,
    });
    expect(errorLines(dir, result)).toEqual([]);
    expect(notesOf(result)).toContainEqual(
      expect.stringMatching(
        /^7: flow "pattern_cancel_flow" has Jinja in 2 action name\(s\) or condition\(s\): as in Rasa, each is rendered with the frame's context when its step runs/,
      ),
    );
  });

  it("reports Jinja that does not compile, and a pattern context key the pattern's context does not hold", async () => {
    const { dir, result } = await loadProject({
      'data/patterns.yml': `flows:
  pattern_cancel_flow:
    description: Cancel.
    steps:
      - action: "utter_{{ context.canceled_name"
      - action: action_cancel_flow
        next:
          - if: "'{{ context.cancelled_name }}' = 'greet'"
            then: END
          - else: END
`,
    });
    expect(errorLines(dir, result)).toEqual([
      expect.stringMatching(
        /^data\/patterns\.yml:5:17: flows\.pattern_cancel_flow\.steps\[0\]\.action is not a valid Jinja template: /,
      ),
      expect.stringMatching(
        /^data\/patterns\.yml:8:17: .*reads context\.cancelled_name, which pattern_cancel_flow's context does not hold.*canceled_name/,
      ),
    ]);
  });
});
