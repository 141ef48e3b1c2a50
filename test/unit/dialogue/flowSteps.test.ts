import { describe, expect, it } from 'vitest';
import { newConversation } from '../../helpers/dialogue.js';

const files = {
  'domain.yml': `slots:
  name:
    type: text
  city:
    type: text
  vip:
    type: bool
    initial_value: false
responses:
  utter_ask_name:
    - text: Name?
  utter_ask_city:
    - text: City?
  utter_hello:
    - text: Hello {name} from {city}.
  utter_vip:
    - condition: slots.vip
      text: Welcome back, VIP.
    - text: Welcome.
  utter_child_done:
    - text: Child done.
`,
  'data/flows.yml': `flows:
  parent:
    description: Calls a child flow, then greets.
    persisted_slots: [city]
    steps:
      - collect: name
        reset_after_flow_ends: false
      - call: child
      - noop: true
        next: greet
      - action: utter_never
      - id: greet
        action: utter_hello
      - set_slots:
          - vip: true
      - action: utter_vip
  child:
    description: Asks for the city.
    if: false
    steps:
      - collect: city
      - action: utter_child_done
`,
};

describe('flow steps', () => {
  it('calls a flow and continues after it; noop jumps; set_slots and conditional responses apply', async () => {
    const c = await newConversation({
      ...files,
      'domain.yml': `${files['domain.yml']}  utter_never:\n    - text: never said\n`,
    });
    c.ports.llm.reply('start flow parent\nset slot name Ada', 'set slot city Paris');
    expect(await c.say('hi, I am Ada')).toEqual(['City?']);
    expect(await c.say('Paris')).toEqual([
      'Child done.',
      'Hello Ada from Paris.',
      'Welcome back, VIP.',
      'Can I help you with anything else?',
    ]);
    expect(c.trace('flow_started', 'flow_completed').slice(2, 6)).toEqual([
      'flow_started:parent',
      'flow_started:child',
      'flow_completed:child',
      'flow_completed:parent',
    ]);
  });

  it.each([
    ['persisted_slots: [city]', 'Paris'],
    ['persisted_slots: []', null],
  ])(
    'resets the slots a flow collected when it ends, unless kept (%s)',
    async (persisted, city) => {
      const c = await newConversation({
        ...files,
        'data/flows.yml': `flows:
  simple:
    description: Asks for name and city.
    ${persisted}
    steps:
      - collect: name
        reset_after_flow_ends: false
      - collect: city
      - action: utter_hello
`,
      });
      c.ports.llm.reply('start flow simple\nset slot name Ada\nset slot city Paris');
      expect(await c.say('Ada from Paris')).toEqual([
        'Hello Ada from Paris.',
        'Can I help you with anything else?',
      ]);
      expect(c.state.slots.name).toBe('Ada');
      expect(c.state.slots.city).toBe(city);
    },
  );
});
