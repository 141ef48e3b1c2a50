import { describe, expect, it } from 'vitest';
import { errorLines, loadProject } from '../../helpers/project.js';

/** Rasa's flow format as its own schema reads it: what Rasa ignores loads, with a note. */
describe("Rasa's flow format", () => {
  it('accepts an else branch with a next key, which Rasa ignores, and says so', async () => {
    const { dir, result } = await loadProject({
      'data/flows.yml': `flows:
  greet:
    description: Greet the user.
    steps:
      - collect: name
        next:
          - if: slots.name = "Ann"
            then:
              - action: utter_done
                next: END
          - else: END
            next: END
`,
    });
    expect(errorLines(dir, result)).toEqual([]);
    expect(result.notes.map((n) => `${n.line}:${n.col}: ${n.message}`)).toContainEqual(
      '12:13: next: ignored: Rasa reads only "else" in an else branch, so this next is never taken',
    );
  });

  it('accepts a top-level key beside flows, which Rasa ignores, with a note where it stands', async () => {
    const { dir, result } = await loadProject({
      'data/flows.yml': `version: "3.1"
flows:
  greet:
    description: Greet the user.
    steps:
      - collect: name
      - action: utter_done
patterns:
  pattern_chitchat:
    steps:
      - action: utter_done
`,
    });
    expect(errorLines(dir, result)).toEqual([]);
    expect(result.notes.map((n) => `${n.line}:${n.col}: ${n.message}`)).toEqual([
      '8:1: patterns: not read: a flows file holds "flows" (Rasa\'s flows schema lets other top-level keys be and ignores them, as Switchboard does)',
    ]);
    expect(result.ok && Object.keys(result.assistant.flows)).toEqual(['greet']);
  });

  it('still refuses an unknown key inside a flow', async () => {
    const { dir, result } = await loadProject({
      'data/flows.yml': `flows:
  greet:
    description: Greet the user.
    stepz: []
    steps:
      - collect: name
`,
    });
    expect(errorLines(dir, result).join('\n')).toMatch(/data\/flows.yml:4:5: unknown key "stepz"/);
  });

  it('still refuses a next key beside if and then', async () => {
    const { dir, result } = await loadProject({
      'data/flows.yml': `flows:
  greet:
    description: Greet the user.
    steps:
      - collect: name
        next:
          - if: slots.name = "Ann"
            then: END
            next: END
          - else: END
`,
    });
    expect(errorLines(dir, result).join('\n')).toMatch(/data\/flows.yml:\d+:\d+: .*next/);
  });
});
