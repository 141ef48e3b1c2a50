import { describe, expect, it } from 'vitest';
import { newConversation } from '../../helpers/dialogue.js';
import { BASE_PROJECT, type ProjectFilesSpec } from '../../helpers/project.js';

const FLOWS = `flows:
  greet:
    description: Greet the user.
    steps:
      - collect: name
        description: the user's first name
      - action: utter_done
  hidden:
    description: Never offered.
    if: false
    steps:
      - action: utter_done
  guarded:
    description: Offered once confirmed.
    if: slots.confirmed
    steps:
      - action: utter_done
`;

/** The base project with `template` as its command generator's prompt. */
function withPromptTemplate(template: string): ProjectFilesSpec {
  return {
    ...BASE_PROJECT,
    'config.yml':
      'pipeline:\n  - name: CompactLLMCommandGenerator\n    prompt_template: prompts/commands.jinja2\n',
    'prompts/commands.jinja2': template,
  };
}

describe('the LLM command generator', () => {
  it('renders the default prompt with the flows, the current slot and the conversation', async () => {
    const c = await newConversation({ ...BASE_PROJECT, 'data/flows.yml': FLOWS });
    c.ports.llm.reply('start flow greet', 'set slot name Ada');
    await c.say('hello there');
    await c.say('I am Ada');
    const [first, second] = c.ports.llm.prompts;
    expect(first).toContain('* greet: Greet the user.');
    expect(first).toContain('    - slot name');
    expect(first).not.toContain('hidden');
    expect(first).not.toContain('guarded');
    expect(first).toContain('No flow is active.');
    expect(first).toContain('Latest user message: """hello there"""');
    expect(second).toContain('Current flow: greet');
    expect(second).toContain("It is asking for slot name (the user's first name).");
    expect(second).toContain('USER: hello there\nAI: What is your name?\nUSER: I am Ada');
  });

  it("describes a slot by its collect step's description, as Rasa's templates do", async () => {
    const template =
      '{% for flow in available_flows %}{% for s in flow.slots %}{{ s.name }}: {{ s.description }} {{ s.allowed_values }}|{% endfor %}{% endfor %}';
    const c = await newConversation({
      ...withPromptTemplate(template),
      'data/flows.yml': `flows:
  greet:
    description: Greet the user.
    steps:
      - collect: name
        description: ALWAYS the first name only
      - collect: confirmed
      - action: utter_done
`,
      'domain.yml': `${BASE_PROJECT['domain.yml']}  utter_ask_confirmed:\n    - text: Sure?\n`,
    });
    c.ports.llm.reply('start flow greet');
    await c.say('hi');
    expect(c.ports.llm.prompts[0]).toBe(
      'name: ALWAYS the first name only None|confirmed: None [True, False]|',
    );
  });

  it('gives a project template the variables Rasa templates use', async () => {
    const template = [
      '{% for flow in available_flows %}{{ flow.name }}|{% endfor %}',
      'current={{ current_flow }} slot={{ current_slot }} type={{ current_slot_type }}',
      '{% for s in flow_slots %}{{ s.name }}={{ s.value }};{% endfor %}',
      'msg={{ user_message }}',
      '{{ current_conversation }}',
    ].join('\n');
    const c = await newConversation(withPromptTemplate(template));
    c.ports.llm.reply('start flow greet', 'set slot name Ada');
    await c.say('hi');
    await c.say('Ada');
    expect(c.ports.llm.prompts[1]).toBe(
      'greet|\ncurrent=greet slot=name type=text\nname=undefined;\nmsg=Ada\nUSER: hi\nAI: What is your name?\nUSER: Ada',
    );
  });

  it("gives Rasa's agent-aware templates each flow's started sub agents and the completed ones", async () => {
    const template = [
      '{% for flow in available_flows %}{{ flow.name }}{% if flow.agent_info %}[{% for a in flow.agent_info %}{{ a.name }}: {{ a.description }}{% endfor %}]{% endif %};{% endfor %}',
      'active={{ active_agent.name if active_agent else "-" }} completed={% for a in completed_agents %}{{ a.name }}: {{ a.description }}{% endfor %}',
    ].join('\n');
    const c = await newConversation({
      ...withPromptTemplate(template),
      'data/flows.yml': `${BASE_PROJECT['data/flows.yml']}  research:
    description: Research anything.
    steps:
      - call: helper
`,
    });
    c.ports.llm.reply('start flow research', 'continue agent', 'start flow greet');
    c.ports.agents.reply(
      { status: 'input_required', responseMessage: 'What about?' },
      { status: 'completed', responseMessage: 'Done.' },
    );
    await c.say('research something');
    await c.say('cars');
    await c.say('hello');
    expect(c.ports.llm.prompts).toEqual([
      'greet;research;\nactive=- completed=',
      'greet;research[helper: Helps with anything.];\nactive=helper completed=',
      'greet;research[helper: Helps with anything.];\nactive=- completed=helper: Helps with anything.',
    ]);
  });

  it('answers a message over the length limit without calling the model', async () => {
    const c = await newConversation({
      ...BASE_PROJECT,
      'config.yml':
        'pipeline:\n  - name: CompactLLMCommandGenerator\n    user_input:\n      max_characters: 10\n',
    });
    expect(await c.say('this message is far too long')).toEqual([
      'Sorry, that message is too long for me. Please keep it under 10 characters.',
    ]);
    expect(c.ports.llm.prompts).toEqual([]);
  });
});
