/**
 * Built-in patterns: flows that repair the conversation. A project overrides one by defining a
 * flow with the same id, and a response by defining one with the same name. Written in the
 * project file format, so an override starts from a copy of these.
 */
export const PATTERN_FLOWS_YAML = `
flows:
  pattern_continue_interrupted:
    description: Offer to go back to a flow or sub agent that a digression interrupted.
    steps:
      - collect: continue_interrupted
        ask_before_filling: true
        next:
          - if: slots.continue_interrupted
            then:
              - action: action_continue_interrupted
                next: END
          - else:
              - action: action_cancel_interrupted
              - action: utter_interrupted_flow_dropped
                next: END
  pattern_cancel_flow:
    description: Confirm that the current flow was stopped.
    steps:
      - action: action_cancel_flow
      - action: utter_flow_cancelled_rasa
  pattern_internal_error:
    description: Tell the user that something failed.
    steps:
      - action: utter_internal_error_rasa
  pattern_completed:
    description: Offer more help once everything is done.
    steps:
      - action: utter_can_do_something_else
  pattern_correction:
    description: Confirm a changed answer.
    steps:
      - action: action_correct_flow_slot
      - action: utter_corrected_previous_input
  pattern_chitchat:
    description: Answer small talk that needs no flow.
    steps:
      - action: utter_free_chitchat_response
  pattern_cannot_handle:
    description: Ask the user to rephrase a message the assistant could not handle.
    steps:
      - action: utter_ask_rephrase
  pattern_clarification:
    description: Ask which of several flows the user meant.
    steps:
      - action: action_clarify_flows
  pattern_human_handoff:
    description: Answer a request for a human.
    steps:
      - action: utter_human_handoff_not_available
  pattern_repeat_bot_messages:
    description: Say the last answer again.
    steps:
      - action: action_repeat_bot_messages
  pattern_external_agent_processing:
    description: Tell the user that an external agent is still working on their request.
    steps:
      - action: utter_external_agent_processing
`;

/** Responses the patterns use; `context` holds the pattern's data. */
export const PATTERN_DOMAIN_YAML = `
slots:
  continue_interrupted:
    type: bool
responses:
  utter_ask_continue_interrupted:
    - text: "Shall we get back to {{ context.previous_flow_name }}?"
      buttons:
        - title: "Yes, let's continue"
          payload: "/SetSlots(continue_interrupted=true)"
        - title: "No, drop it"
          payload: "/SetSlots(continue_interrupted=false)"
      metadata:
        template: jinja
  utter_flow_continue_interrupted:
    - text: "Back to {{ context.previous_flow_name }}."
      metadata:
        template: jinja
  utter_interrupted_flow_dropped:
    - text: "Okay, let's leave {{ context.previous_flow_name }} then."
      metadata:
        template: jinja
  utter_flow_cancelled_rasa:
    - text: "All right, I've stopped {{ context.canceled_name }}."
      metadata:
        template: jinja
  utter_internal_error_rasa:
    - text: "Sorry, something went wrong on my side. Please try again in a moment."
  utter_can_do_something_else:
    - text: "Can I help you with anything else?"
  utter_corrected_previous_input:
    - text: "Got it, I've updated {{ context.corrected_slots_text }}."
      metadata:
        template: jinja
  utter_free_chitchat_response:
    - text: "I'm happy to chat, though I'm best at the tasks I was built for. What can I do for you?"
  utter_ask_rephrase:
    - text: "Sorry, I didn't catch that. Could you say it another way?"
  utter_clarification_options_rasa:
    - text: "Which of these did you mean?"
  utter_human_handoff_not_available:
    - text: "I can't connect you to a person right now, but I'll do my best to help. What do you need?"
  utter_external_agent_processing:
    - text: "{{ context.agent_name }} is still working on your request. I'll let you know as soon as it's done."
      metadata:
        template: jinja
`;
