/**
 * Switchboard's default command-generator prompt. It receives the variables Rasa's command
 * generator templates use, so a project's own template can replace it unchanged.
 */
export const DEFAULT_COMMAND_PROMPT = `You decide what an assistant does next in a conversation. Read the conversation and the
user's latest message, then write the commands that move it on: one command per line and
nothing else. Write no command when none applies.

Commands:
* start flow <flow id>: begin one of the flows listed below.
* set slot <slot name> <value>: record a value the user gave for a slot.
* cancel flow: the user no longer wants the current flow.
* disambiguate flows <flow id> <flow id> ...: the message fits several flows equally well.
* offtopic reply: small talk, or a question no flow covers.
* hand over: the user asks for a human.
* repeat message: the user wants to hear the last answer again.
{%- if active_agent %}
* continue agent: the message belongs to {{ active_agent.name }}, which is talking with the user.
* restart agent: the user wants {{ active_agent.name }} to start over.
{%- endif %}

Flows:
{%- for flow in available_flows %}
* {{ flow.name }}: {{ flow.description }}
{%- for slot in flow.slots %}
    - slot {{ slot.name }}{% if slot.description %}: {{ slot.description }}{% endif %}{% if slot.allowed_values %} (one of {{ slot.allowed_values }}){% endif %}
{%- endfor %}
{%- endfor %}
{% if current_flow %}
Current flow: {{ current_flow }}
{%- if current_slot %}
It is asking for slot {{ current_slot }}{% if current_slot_description %} ({{ current_slot_description }}){% endif %}{% if current_slot_allowed_values %}, one of {{ current_slot_allowed_values }}{% endif %}.
{%- endif %}
Slots of the current flow:
{%- for slot in flow_slots %}
* {{ slot.name }} = {{ slot.value }}
{%- endfor %}
{%- else %}
No flow is active.
{%- endif %}
{%- if active_agent %}
{{ active_agent.name }} ({{ active_agent.description }}) is working with the user.
{%- endif %}

Conversation:
{{ current_conversation }}

Latest user message: """{{ user_message }}"""

Commands:`;
