/**
 * Built-in patterns: flows that repair the conversation, with the ids, slots, actions and
 * response names of Rasa's default patterns, so that a project's override of any of them (or of
 * one of their responses) behaves as in Rasa. A project overrides a pattern by defining a flow
 * with the same id, and a response by defining one with the same name. Written in the project
 * file format, so an override can start from a copy of these.
 */
export const PATTERN_FLOWS_YAML = `
flows:
  pattern_continue_interrupted:
    description: Offer to go back to a flow or sub agent that a digression interrupted.
    name: pattern continue interrupted
    steps:
      - noop: true
        next:
          - if: context.multiple_flows_interrupted
            then: collect_interrupted_flow_to_continue
          - else: collect_continue_interrupted_flow_confirmation
      - id: collect_interrupted_flow_to_continue
        collect: interrupted_flow_to_continue
        description: The name of the interrupted flow the user wants to go back to, or "none" when they want none of them.
        next:
          - if: slots.interrupted_flow_to_continue is not "none"
            then:
              - action: action_continue_interrupted_flow
                next: END
          - else:
              - action: action_cancel_interrupted_flows
              - action: utter_interrupted_flow_dropped
                next: END
      - id: collect_continue_interrupted_flow_confirmation
        collect: continue_interrupted_flow_confirmation
        description: true when the user wants to go back to the interrupted flow, false when not.
        next:
          - if: slots.continue_interrupted_flow_confirmation
            then:
              - action: action_continue_interrupted_flow
                next: END
          - else:
              - action: action_cancel_interrupted_flows
              - action: utter_interrupted_flow_dropped
                next: END
  pattern_cancel_flow:
    description: Stop the current flow and confirm it.
    name: pattern cancel flow
    steps:
      - action: action_cancel_flow
      - action: utter_flow_cancelled_rasa
  pattern_internal_error:
    description: Tell the user that something failed.
    name: pattern internal error
    steps:
      - noop: true
        next:
          - if: context.error_type is "rasa_internal_error_user_input_too_long"
            then:
              - action: utter_user_input_too_long_error_rasa
                next: END
          - if: context.error_type is "rasa_internal_error_user_input_empty"
            then:
              - action: utter_user_input_empty_error_rasa
                next: END
          - else:
              - action: utter_internal_error_rasa
                next: END
  pattern_completed:
    description: Offer more help once everything is done.
    name: pattern completed
    steps:
      - action: utter_can_do_something_else
  pattern_correction:
    description: Apply and confirm a changed answer.
    name: pattern correction
    steps:
      - action: action_correct_flow_slot
        next:
          - if: not context.is_reset_only
            then:
              - action: utter_corrected_previous_input
                next: END
          - else: END
  pattern_chitchat:
    description: Answer small talk that needs no flow (with utter_free_chitchat_response in an override, the model answers it).
    name: pattern chitchat
    steps:
      - action: utter_cannot_handle
  pattern_cannot_handle:
    description: Answer a message the assistant could not turn into anything to do.
    name: pattern cannot handle
    steps:
      - noop: true
        next:
          - if: context.reason is "cannot_handle_chitchat"
            then:
              - action: utter_cannot_handle
                next: END
          - if: context.reason is "cannot_handle_not_supported"
            then:
              - action: utter_cannot_handle
                next: END
          - if: context.reason is "cannot_handle_no_relevant_answer"
            then:
              - action: utter_no_relevant_answer_found
                next: END
          - else:
              - action: utter_ask_rephrase
                next: END
  pattern_clarification:
    description: Ask which of several flows the user meant.
    name: pattern clarification
    steps:
      - noop: true
        next:
          - if: context.names
            then: action_clarify_flows
          - else:
              - action: utter_clarification_no_options_rasa
                next: END
      - id: action_clarify_flows
        action: action_clarify_flows
      - action: utter_clarification_options_rasa
  pattern_code_change:
    description: Start over after the assistant changed under a running conversation.
    name: pattern code change
    steps:
      - action: utter_inform_code_change
      - action: action_clean_stack
  pattern_human_handoff:
    description: Answer a request for a human.
    name: pattern human handoff
    steps:
      - action: action_handoff_metric
      - action: utter_human_handoff_not_available
  pattern_repeat_bot_messages:
    description: Say the last answer again.
    name: pattern repeat bot messages
    steps:
      - action: action_repeat_bot_messages
  pattern_restart:
    description: Start the conversation over.
    name: pattern restart
    nlu_trigger:
      - intent: restart
    steps:
      - action: action_restart
  pattern_search:
    description: Answer a question that needs a knowledge base.
    name: pattern search
    steps:
      - action: utter_no_knowledge_base
  pattern_session_start:
    description: Start a conversation.
    name: pattern session start
    nlu_trigger:
      - intent: session_start
    steps:
      - action: action_session_start
  pattern_skip_question:
    description: Answer a user who wants to skip a question the flow needs.
    name: pattern skip question
    steps:
      - action: utter_skip_question_answer
  pattern_user_silence:
    description: React when a voice user stays silent.
    name: pattern user silence
    nlu_trigger:
      - intent: silence_timeout
    persisted_slots:
      - consecutive_silence_timeouts
    steps:
      - noop: true
        next:
          - if: slots.consecutive_silence_timeouts = 0.0
            then: first_silence
          - if: slots.consecutive_silence_timeouts = 1.0
            then: second_silence
          - if: slots.consecutive_silence_timeouts > 1.0
            then: hang_up
          - else: END
      - id: first_silence
        set_slots:
          - consecutive_silence_timeouts: 1.0
      - action: action_repeat_bot_messages
        next: END
      - id: second_silence
        set_slots:
          - consecutive_silence_timeouts: 2.0
      - action: utter_ask_still_there
        next: END
      - id: hang_up
        action: utter_inform_hangup
      - action: action_hangup
  pattern_external_agent_processing:
    description: Tell the user that an external agent is still working on their request.
    name: pattern external agent processing
    steps:
      - action: utter_external_agent_processing
`;

/**
 * The slots and responses the patterns use, under Rasa's names; `context` holds the pattern's
 * data. The texts are Switchboard's own. `continue_interrupted` and the responses that name it
 * are kept for overrides written against earlier versions of these patterns.
 */
export const PATTERN_DOMAIN_YAML = `
slots:
  continue_interrupted_flow_confirmation:
    type: bool
  interrupted_flow_to_continue:
    type: text
  continue_interrupted:
    type: bool
  confirm_correction:
    type: bool
  silence_timeout:
    type: float
    initial_value: 7.0
    max_value: 1000000
  consecutive_silence_timeouts:
    type: float
    initial_value: 0.0
    max_value: 1000000
  session_started_metadata:
    type: any
responses:
  utter_ask_continue_interrupted_flow_confirmation:
    - text: "Shall we get back to {{ context.interrupted_flow_options }}?"
      buttons:
        - title: "Yes, let's continue"
          payload: "/SetSlots(continue_interrupted_flow_confirmation=true)"
        - title: "No, drop it"
          payload: "/SetSlots(continue_interrupted_flow_confirmation=false)"
      metadata:
        rephrase: true
        template: jinja
  utter_ask_interrupted_flow_to_continue:
    - text: "Which of these shall we get back to: {{ context.interrupted_flow_options }}? Or none of them?"
      metadata:
        rephrase: true
        template: jinja
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
        rephrase: true
        template: jinja
  utter_interrupted_flow_dropped:
    - text: "Okay, let's leave {{ context.interrupted_flow_options }} then."
      metadata:
        rephrase: true
        template: jinja
  utter_flow_cancelled_rasa:
    - text: "All right, I've stopped {{ context.canceled_name }}."
      metadata:
        rephrase: true
        template: jinja
  utter_internal_error_rasa:
    - text: "Sorry, something went wrong on my side. Please try again in a moment."
  utter_user_input_too_long_error_rasa:
    - text: "Sorry, that message is too long for me.{% if context.info.max_characters %} Please keep it under {{ context.info.max_characters }} characters.{% else %} Please make it shorter.{% endif %}"
      metadata:
        template: jinja
  utter_user_input_empty_error_rasa:
    - text: "Your message was empty. What can I do for you?"
  utter_can_do_something_else:
    - text: "Can I help you with anything else?"
      metadata:
        rephrase: true
  utter_ask_continue_conversation:
    - text: "Is there anything else I can do for you?"
      metadata:
        rephrase: true
  utter_closing_words:
    - text: "All right. I'm here if you need anything else."
      metadata:
        rephrase: true
  utter_corrected_previous_input:
    - text: "Got it, I've updated {{ context.corrected_slots_text }}."
      metadata:
        rephrase: true
        template: jinja
  utter_free_chitchat_response:
    - text: "I'm happy to chat, though I'm best at the tasks I was built for. What can I do for you?"
      metadata:
        rephrase: true
        rephrase_prompt: |
          You are a friendly assistant. Answer the user's remark below in one or two short,
          warm sentences in plain language, then offer to help with what you can do.
          User: {{ current_input }}
          Answer:
  utter_cannot_handle:
    - text: "I'm best at the tasks I was built for, so I can't help with that one. What can I do for you?"
  utter_no_relevant_answer_found:
    - text: "Sorry, I couldn't find an answer to that."
      metadata:
        rephrase: true
  utter_no_knowledge_base:
    - text: "I'm afraid I can't answer that: I have no knowledge base to look it up in."
      metadata:
        rephrase: true
  utter_ask_rephrase:
    - text: "Sorry, I didn't catch that. Could you say it another way?"
  utter_clarification_options_rasa:
    - text: "Which of these did you mean?"
      metadata:
        rephrase: true
  utter_clarification_no_options_rasa:
    - text: "I can help, but I need a little more to go on. What would you like to do?"
      metadata:
        rephrase: true
  utter_human_handoff_not_available:
    - text: "I can't connect you to a person right now, but I'll do my best to help. What do you need?"
      metadata:
        rephrase: true
  utter_inform_code_change:
    - text: "I've just been updated, so I have to start our conversation over."
      metadata:
        rephrase: true
  utter_skip_question_answer:
    - text: "I need an answer to this one to go on. Could you give it a try?"
      metadata:
        rephrase: true
  utter_ask_still_there:
    - text: "Are you still there?"
      metadata:
        rephrase: true
  utter_inform_hangup:
    - text: "I haven't heard from you, so I'll end the call now."
      metadata:
        rephrase: true
  utter_boolean_slot_rejection:
    - text: "Sorry, {{ value }} is not an answer I can use here. Please answer yes or no."
      metadata:
        rephrase: true
        template: jinja
  utter_categorical_slot_rejection:
    - text: "Sorry, {{ value }} is not one of the options. Please pick one of them."
      metadata:
        rephrase: true
        template: jinja
  utter_float_slot_rejection:
    - text: "Sorry, {{ value }} is not a number I can use. Please give a number."
      metadata:
        rephrase: true
        template: jinja
  utter_external_agent_processing:
    - text: "I'm still working on your request. I'll let you know as soon as it's done."
  utter_restart:
    - text: "All right, let's start over. What can I do for you?"
`;

/**
 * The steps of Rasa's default `pattern_collect_information` and `pattern_validate_slot`. A collect
 * step does what they do (check the slot's rejections, run `validate_<slot>`, ask with its utter
 * or `action_ask_<slot>`, wait for the answer, check again), without pushing a pattern; a
 * project's override with these same steps therefore changes nothing.
 */
export const NATIVE_PATTERNS_YAML = `
flows:
  pattern_collect_information:
    description: Collect a slot's value.
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
  pattern_validate_slot:
    description: Validate a slot's value.
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
