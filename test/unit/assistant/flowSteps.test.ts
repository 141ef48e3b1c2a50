import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type FlowStep, FlowsFile, kindedStep, stepKind } from '../../../src/assistant/index.js';

const stepsOf = (yaml: string): FlowStep[] =>
  FlowsFile.parse(parse(`flows:\n  greet:\n    steps:\n${yaml}`)).flows.greet?.steps ?? [];

describe('stepKind', () => {
  it('reads each kind from the key the step was written with', () => {
    const steps = stepsOf(`      - action: utter_greet
      - collect: name
      - set_slots:
          - name: null
      - call: other
      - noop: true
        next: END
      - link: goodbye
`);
    expect(steps.map(stepKind)).toEqual(['action', 'collect', 'set_slots', 'call', 'noop', 'link']);
  });

  it('leaves a parsed step only the keys of the file and its defaults', () => {
    const [action, collect] = stepsOf(
      '      - action: utter_greet\n        next: END\n      - collect: name\n',
    );
    expect(Reflect.ownKeys(action ?? {})).toEqual(['action', 'next']);
    expect(Reflect.ownKeys(collect ?? {}).sort()).toEqual(
      [
        'ask_before_filling',
        'collect',
        'force_slot_filling',
        'rejections',
        'reset_after_flow_ends',
      ].sort(),
    );
  });

  it('parses a step with two kind keys as the first one written', () => {
    const result = FlowsFile.safeParse(
      parse('flows:\n  greet:\n    steps:\n      - collect: name\n        action: utter_greet\n'),
    );
    expect(result.success).toBe(true);
    const step = result.data?.flows.greet?.steps[0];
    expect(step && kindedStep(step)).toEqual({
      kind: 'collect',
      step: expect.objectContaining({ collect: 'name' }),
    });
    expect(step).not.toHaveProperty('action');
  });
});
