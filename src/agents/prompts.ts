/**
 * The system prompts of the ReAct agents: a nunjucks (Jinja2) template rendered with the agent's
 * variables. The conversation itself never goes into the template; it follows as chat messages.
 */
import type nunjucks from 'nunjucks';
import type { ReactSubAgent } from '../assistant/index.js';
import { compileTemplate } from '../prompts/environment.js';
import { pythonList } from './builtinTools.js';
import { TemplateDateTime } from './dateTime.js';

const SHARED_RULES = `## How to work
- Write to the user in clear, friendly sentences that fit the conversation.
- Ask one question at a time and wait for the answer before the next.
- Do not guess the values you pass to tools: when the request is unclear, ask.
- Only claim facts and abilities your tools give you; never invent them.`;

const SHARED_SECTIONS = `{% if enable_filler_messages %}
## While a tool works
- When you call a tool, put a brief acknowledgement in the same response (for example "Let me check." or "One moment."). It reaches the user before the tool runs.
- Do not restate or paraphrase what the user asked, and vary how you open.
- After the tool answers, give only what is new: start with a full sentence, then the results or your next question. Do not repeat the request, your acknowledgement, or that you looked something up.
{% endif %}
{% if resumed_after_interruption %}
## Back after an interruption
The conversation went elsewhere for a while and has now come back to your task.{% if resumed_last_request %} Before that, you had asked: {{ resumed_last_request }}{% endif %} Use what was said in between if it answers your question; otherwise ask again.
{% endif %}
{% if restarted %}
## Starting over
The messages below may contain a part marked "Previous run (completed)." That run is over. Start afresh and ask the user again for what you need.
{% endif %}
{% if current_datetime %}
## Date and time
- Today: {{ current_datetime.strftime("%A, %d %B %Y") }}
- Time: {{ current_datetime.strftime("%H:%M:%S") }} ({{ current_datetime.tzname() }}, 24-hour clock)
{% endif %}`;

/** The default prompt of a general-purpose agent. */
export const OPEN_AGENT_TEMPLATE = `You are an assistant that works on one task for the user.

## Your task
{{ description }}

${SHARED_RULES}
- When the task is completely done, call \`task_completed\` once, and write your closing message in the same response: a short reply to the user's latest message, not a summary of the conversation. Never call it without text.
- Do not call \`task_completed\` for a correction, a clarification or a follow-up question: only when the task above is finished.
${SHARED_SECTIONS}`;

/** The default prompt of a task-specific agent. */
export const TASK_AGENT_TEMPLATE = `You are an assistant that collects information for the user's request.

## What you can do
{{ description }}

## Your task
- Use your tools to find the values of these slots: {{ slot_names }}.
- Store each value with its \`set_slot_<slot_name>\` tool.

${SHARED_RULES}
${SHARED_SECTIONS}`;

const defaults = new Map<string, nunjucks.Template>();

function defaultTemplate(kind: 'open' | 'task'): nunjucks.Template {
  let template = defaults.get(kind);
  if (!template) {
    template = compileTemplate(
      kind === 'open' ? OPEN_AGENT_TEMPLATE : TASK_AGENT_TEMPLATE,
      `default ${kind} agent prompt`,
    );
    defaults.set(kind, template);
  }
  return template;
}

const projectTemplates = new WeakMap<ReactSubAgent, nunjucks.Template>();

/** The agent's template: its `prompt_template`, or the default for its kind. */
export function agentTemplate(agent: ReactSubAgent, kind: 'open' | 'task'): nunjucks.Template {
  if (!agent.promptTemplate) return defaultTemplate(kind);
  let template = projectTemplates.get(agent);
  if (!template) {
    template = compileTemplate(agent.promptTemplate.text, agent.promptTemplate.file);
    projectTemplates.set(agent, template);
  }
  return template;
}

/** What a prompt template can use. */
export interface PromptVariables {
  readonly description: string;
  /** Task-specific agents: the slots to fill. */
  readonly slotNames?: readonly string[];
  readonly slots: Readonly<Record<string, unknown>>;
  /** Given when `include_date_time` is on. */
  readonly now?: number;
  readonly timezone: string;
  readonly enableFillerMessages: boolean;
  readonly resumedAfterInterruption: boolean;
  readonly resumedLastRequest?: string;
  readonly restarted: boolean;
}

/** A list that prints as Python prints it (`['a', 'b']`), as `{{ slot_names }}` does in Jinja2. */
class PythonList<T> extends Array<T> {
  override toString(): string {
    return pythonList(this);
  }
}

/** Renders the system prompt. */
export function renderPrompt(template: nunjucks.Template, vars: PromptVariables): string {
  const slotNames = vars.slotNames ? PythonList.from(vars.slotNames) : undefined;
  const text = template.render({
    description: vars.description,
    ...(slotNames ? { slot_names: slotNames } : {}),
    slots: { ...vars.slots },
    current_datetime:
      vars.now === undefined ? undefined : new TemplateDateTime(vars.now, vars.timezone),
    enable_filler_messages: vars.enableFillerMessages,
    resumed_after_interruption: vars.resumedAfterInterruption,
    resumed_last_request: vars.resumedLastRequest,
    restarted: vars.restarted,
  });
  // As Jinja2 does by default: a single trailing newline is dropped.
  return text.endsWith('\n') ? text.slice(0, -1) : text;
}
