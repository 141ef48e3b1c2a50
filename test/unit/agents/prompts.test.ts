import { describe, expect, it } from 'vitest';
import {
  agentTemplate,
  OPEN_AGENT_TEMPLATE,
  renderPrompt,
  TASK_AGENT_TEMPLATE,
  TemplateDateTime,
} from '../../../src/agents/index.js';
import type { ReactSubAgent } from '../../../src/assistant/index.js';
import { compileTemplate } from '../../../src/prompts/environment.js';

// A template of ours with every construct the shipped ReAct templates use: variables, nested
// conditional blocks, `strftime` and `tzname()` on `current_datetime`, `slots.<name>`.
const TEMPLATE =
  'Agent: {{ description }}\nSlots to fill: {{ slot_names }}\nCar: {{ slots.car_model }}\n{% if enable_filler_messages %}\nAcknowledge tools briefly.{% endif %}\n\n{% if resumed_after_interruption %}Resumed.{% if resumed_last_request %} Last asked: {{ resumed_last_request }}.{% endif %} Ask again if needed.{% endif %}\n\n{% if restarted %}Restarted: start afresh.{% endif %}\n\n{% if current_datetime %}\n- Date: {{ current_datetime.strftime("%d %B, %Y") }}\n- Time: {{ current_datetime.strftime("%H:%M:%S") }} ({{ current_datetime.tzname() }})\n- Day: {{ current_datetime.strftime("%A") }}\n- Short: {{ current_datetime.strftime("%a %b %d %I:%M %p %j %y %m %Z %z") }}\n{% endif %}\n';

/** The template rendered by Jinja2 3.1 with Python's zoneinfo, per time zone. */
const JINJA2: Record<string, string> = {
  'Europe/Berlin':
    "Agent: Books test drives.\nSlots to fill: ['dealer_name', 'appointment_time']\nCar: Aurora EV\n\nAcknowledge tools briefly.\n\nResumed. Last asked: Which dealer?. Ask again if needed.\n\n\n\n\n- Date: 28 June, 2026\n- Time: 11:54:56 (CEST)\n- Day: Sunday\n- Short: Sun Jun 28 11:54 AM 179 26 06 CEST +0200\n",
  'America/New_York':
    "Agent: Books test drives.\nSlots to fill: ['dealer_name', 'appointment_time']\nCar: Aurora EV\n\n\n\n\nRestarted: start afresh.\n\n\n- Date: 28 June, 2026\n- Time: 05:54:56 (EDT)\n- Day: Sunday\n- Short: Sun Jun 28 05:54 AM 179 26 06 EDT -0400\n",
  UTC: "Agent: Books test drives.\nSlots to fill: ['dealer_name', 'appointment_time']\nCar: Aurora EV\n\nAcknowledge tools briefly.\n\nResumed. Ask again if needed.\n\nRestarted: start afresh.\n\n\n- Date: 28 June, 2026\n- Time: 09:54:56 (UTC)\n- Day: Sunday\n- Short: Sun Jun 28 09:54 AM 179 26 06 UTC +0000\n",
  none: "Agent: Books test drives.\nSlots to fill: ['dealer_name', 'appointment_time']\nCar: Aurora EV\n\n\n\n\n\n\n",
};

/** 2026-06-28 09:54:56.789 UTC. */
const NOW = 1_782_640_496_789;

const FLAGS = {
  'Europe/Berlin': { filler: true, resumed: true, lastRequest: 'Which dealer?', restarted: false },
  'America/New_York': { filler: false, resumed: false, lastRequest: undefined, restarted: true },
  UTC: { filler: true, resumed: true, lastRequest: undefined, restarted: true },
  none: { filler: false, resumed: false, lastRequest: undefined, restarted: false },
} as const;

describe('prompt templates', () => {
  for (const [zone, flags] of Object.entries(FLAGS)) {
    it(`render as Jinja2 does (${zone})`, () => {
      const text = renderPrompt(compileTemplate(TEMPLATE, 'test.jinja2'), {
        description: 'Books test drives.',
        slotNames: ['dealer_name', 'appointment_time'],
        slots: { car_model: 'Aurora EV' },
        ...(zone === 'none' ? {} : { now: NOW }),
        timezone: zone === 'none' ? 'UTC' : zone,
        enableFillerMessages: flags.filler,
        resumedAfterInterruption: flags.resumed,
        ...(flags.lastRequest ? { resumedLastRequest: flags.lastRequest } : {}),
        restarted: flags.restarted,
      });
      expect(text).toBe(JINJA2[zone]);
    });
  }

  it('give both default templates the description, the flags and the date', () => {
    const vars = {
      description: 'Finds dealers.',
      slotNames: ['dealer_name'],
      slots: {},
      now: NOW,
      timezone: 'Europe/Berlin',
      enableFillerMessages: true,
      resumedAfterInterruption: true,
      resumedLastRequest: 'Which city?',
      restarted: true,
    };
    for (const template of [OPEN_AGENT_TEMPLATE, TASK_AGENT_TEMPLATE]) {
      const text = renderPrompt(compileTemplate(template, 'default'), vars);
      expect(text).toContain('Finds dealers.');
      expect(text).toContain('Before that, you had asked: Which city?');
      expect(text).toContain('Previous run (completed).');
      expect(text).toContain('Sunday, 28 June 2026');
      expect(text).toContain('11:54:56 (CEST');
      expect(text).toContain('acknowledgement');
    }
    const quiet = renderPrompt(compileTemplate(TASK_AGENT_TEMPLATE, 'default'), {
      ...vars,
      now: undefined,
      enableFillerMessages: false,
      resumedAfterInterruption: false,
      restarted: false,
    });
    expect(quiet).toContain("['dealer_name']");
    expect(quiet).not.toMatch(/acknowledgement|after an interruption|Starting over|Date and time/);
  });
});

describe('agentTemplate', () => {
  const vars = {
    description: 'Finds dealers.',
    slotNames: ['dealer_name'],
    slots: {},
    timezone: 'UTC',
    enableFillerMessages: false,
    resumedAfterInterruption: false,
    restarted: false,
  };
  const agent = (promptTemplate?: ReactSubAgent['promptTemplate']) =>
    ({ name: 'finder', ...(promptTemplate ? { promptTemplate } : {}) }) as ReactSubAgent;

  it('gives a general-purpose agent the default prompt that ends with task_completed', () => {
    const text = renderPrompt(agentTemplate(agent(), 'open'), vars);
    expect(text).toMatch(/^You are an assistant that works on one task for the user\./);
    expect(text).toContain('call `task_completed` once');
  });

  it('gives a task-specific agent the default prompt that asks for its slots', () => {
    const text = renderPrompt(agentTemplate(agent(), 'task'), vars);
    expect(text).toMatch(/^You are an assistant that collects information/);
    expect(text).toContain("find the values of these slots: ['dealer_name']");
    expect(text).not.toContain('task_completed');
  });

  it('gives both default prompts the rules of how to work', () => {
    for (const kind of ['open', 'task'] as const) {
      const text = renderPrompt(agentTemplate(agent(), kind), vars);
      expect(text).toContain('## How to work\n- Write to the user in clear, friendly sentences');
      expect(text).toContain('- Ask one question at a time and wait for the answer');
    }
  });

  it("renders the agent's own prompt_template, keeping a text without a trailing newline whole", () => {
    const own = agent({
      file: 'sub_agents/finder/prompt.jinja2',
      text: 'Help with: {{ description }}',
    });
    expect(renderPrompt(agentTemplate(own, 'open'), vars)).toBe('Help with: Finds dealers.');
    expect(renderPrompt(agentTemplate(own, 'open'), vars)).toBe('Help with: Finds dealers.');
  });
});

describe('current_datetime', () => {
  it("formats like Python's strftime in the configured zone", () => {
    const berlin = new TemplateDateTime(NOW, 'Europe/Berlin');
    expect(berlin.strftime('%Y-%m-%d %H:%M:%S.%f %z %Z %A %a %B %b %I %p %j %y %w %%')).toBe(
      '2026-06-28 11:54:56.789000 +0200 CEST Sunday Sun June Jun 11 AM 179 26 0 %',
    );
    expect(berlin.isoformat()).toBe('2026-06-28T11:54:56.789000+02:00');
    expect(String(berlin)).toBe('2026-06-28 11:54:56.789000+02:00');
    expect([berlin.weekday(), berlin.isoweekday(), berlin.date(), berlin.time()]).toEqual([
      6,
      7,
      '2026-06-28',
      '11:54:56.789000',
    ]);
    expect(berlin.strftime('%-d %-H %Q')).toBe('28 11 %Q');
  });

  it('names zones as the IANA data does, or by their offset when the data has no name', () => {
    const winter = Date.UTC(2026, 0, 15, 12);
    expect(new TemplateDateTime(winter, 'Europe/Berlin').tzname()).toBe('CET');
    expect(new TemplateDateTime(winter, 'America/Los_Angeles').tzname()).toBe('PST');
    expect(new TemplateDateTime(winter, 'Europe/London').tzname()).toBe('GMT');
    expect(new TemplateDateTime(winter, 'Asia/Kolkata').tzname()).toBe('IST');
    expect(new TemplateDateTime(winter, 'Asia/Kathmandu').tzname()).toBe('+0545');
    expect(new TemplateDateTime(winter, 'Asia/Kathmandu').strftime('%H:%M %z')).toBe('17:45 +0545');
    expect(new TemplateDateTime(winter, 'Pacific/Chatham').utcoffset()).toBe('+1345');
  });
});
