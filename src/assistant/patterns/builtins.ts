import type { ResponseVariation, SlotDefinition } from '../schemas/domain.js';
import type { FlowDefinition } from '../schemas/flows.js';
import {
  BUILTIN_PATTERN_FLOWS,
  BUILTIN_PATTERN_RESPONSES,
  BUILTIN_PATTERN_SLOTS,
} from './builtinData.generated.js';
import { NATIVE_PATTERN } from './nativePatterns.js';

/** Ids of the built-in patterns. */
export const PATTERN = {
  continueInterrupted: 'pattern_continue_interrupted',
  cancelFlow: 'pattern_cancel_flow',
  internalError: 'pattern_internal_error',
  completed: 'pattern_completed',
  correction: 'pattern_correction',
  chitchat: 'pattern_chitchat',
  cannotHandle: 'pattern_cannot_handle',
  clarification: 'pattern_clarification',
  humanHandoff: 'pattern_human_handoff',
  repeatBotMessages: 'pattern_repeat_bot_messages',
  externalAgentProcessing: 'pattern_external_agent_processing',
  sessionStart: 'pattern_session_start',
  restart: 'pattern_restart',
  search: 'pattern_search',
  skipQuestion: 'pattern_skip_question',
  codeChange: 'pattern_code_change',
  userSilence: 'pattern_user_silence',
} as const;

/**
 * Actions the engine runs itself, under Rasa's names (and a few names of our own that earlier
 * pattern overrides use); flows and pattern overrides may name them.
 */
export const BUILTIN_ACTIONS: ReadonlySet<string> = new Set([
  'action_listen',
  'action_restart',
  'action_session_start',
  'action_default_fallback',
  'action_deactivate_loop',
  'action_revert_fallback_events',
  'action_default_ask_affirmation',
  'action_default_ask_rephrase',
  'action_two_stage_fallback',
  'action_unlikely_intent',
  'action_back',
  'action_send_text',
  'action_extract_slots',
  'action_validate_slot_mappings',
  'action_cancel_flow',
  'action_correct_flow_slot',
  'action_clarify_flows',
  'action_run_slot_rejections',
  'action_clean_stack',
  'action_trigger_search',
  'action_trigger_chitchat',
  'action_reset_routing',
  'action_hangup',
  'action_handoff_metric',
  'action_repeat_bot_messages',
  'action_continue_interrupted_flow',
  'action_cancel_interrupted_flows',
  'action_continue_interrupted',
  'action_cancel_interrupted',
]);

// Parsed from the YAML of definitions.ts when the sources are generated (`npm run generate`), so
// that loading them takes neither a YAML parser nor a schema check.
export const PATTERN_FLOWS: Readonly<Record<string, FlowDefinition>> = BUILTIN_PATTERN_FLOWS;
export const BUILTIN_SLOTS: Readonly<Record<string, SlotDefinition>> = BUILTIN_PATTERN_SLOTS;
export const BUILTIN_RESPONSES: Readonly<Record<string, readonly ResponseVariation[]>> =
  BUILTIN_PATTERN_RESPONSES;

/**
 * The keys of each built-in pattern's context (`context.<key>` in its conditions, Jinja steps and
 * responses), as the engine fills them; for Rasa's collect patterns, which collect steps do
 * natively, the keys Rasa gives them.
 */
export const PATTERN_CONTEXT_KEYS: Readonly<Record<string, readonly string[]>> = {
  [PATTERN.continueInterrupted]: [
    'previous_flow_name',
    'interrupted_flow_options',
    'interrupted_flows',
    'multiple_flows_interrupted',
    'interrupted_flow_frame',
    'interrupted_flow_frames',
    'interrupted_agent_frame',
  ],
  [PATTERN.cancelFlow]: ['canceled_name', 'canceled_frames'],
  [PATTERN.correction]: [
    'is_reset_only',
    'corrected_slots',
    'new_slot_values',
    'previous_slot_values',
    'reset_flow_id',
    'reset_step_id',
    'reset_frame_id',
    'corrected_slots_text',
  ],
  [PATTERN.clarification]: ['names', 'flow_ids', 'clarification_options'],
  [PATTERN.cannotHandle]: ['reason'],
  [PATTERN.internalError]: ['reason', 'error_type', 'info'],
  [PATTERN.repeatBotMessages]: ['messages'],
  [PATTERN.completed]: ['previous_flow_name'],
  [PATTERN.externalAgentProcessing]: ['agent_name'],
  [PATTERN.chitchat]: [],
  [PATTERN.humanHandoff]: [],
  [PATTERN.sessionStart]: [],
  [PATTERN.restart]: [],
  [PATTERN.search]: [],
  [PATTERN.skipQuestion]: [],
  [PATTERN.codeChange]: [],
  [PATTERN.userSilence]: [],
  [NATIVE_PATTERN.collectInformation]: ['collect', 'utter', 'collect_action', 'rejections'],
  [NATIVE_PATTERN.validateSlot]: ['validate', 'refill_utter', 'refill_action', 'rejections'],
};

/** True for the id of a pattern (built-in or project-defined). */
export function isPatternId(flowId: string): boolean {
  return flowId.startsWith('pattern_');
}
