import { parse } from 'yaml';
import { DomainFile, type ResponseVariation, type SlotDefinition } from '../schemas/domain.js';
import { type FlowDefinition, FlowsFile } from '../schemas/flows.js';
import { PATTERN_DOMAIN_YAML, PATTERN_FLOWS_YAML } from './definitions.js';

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
} as const;

/** Actions the engine runs itself; flows (and pattern overrides) may name them. */
export const BUILTIN_ACTIONS: ReadonlySet<string> = new Set([
  'action_listen',
  'action_cancel_flow',
  'action_correct_flow_slot',
  'action_continue_interrupted',
  'action_cancel_interrupted',
  'action_clarify_flows',
  'action_repeat_bot_messages',
  'action_session_start',
  'action_restart',
]);

const flows = FlowsFile.parse(parse(PATTERN_FLOWS_YAML)).flows;
const domain = DomainFile.parse(parse(PATTERN_DOMAIN_YAML));

export const PATTERN_FLOWS: Readonly<Record<string, FlowDefinition>> = flows;
export const BUILTIN_SLOTS: Readonly<Record<string, SlotDefinition>> = domain.slots;
export const BUILTIN_RESPONSES: Readonly<Record<string, readonly ResponseVariation[]>> =
  domain.responses;

/** True for the id of a pattern (built-in or project-defined). */
export function isPatternId(flowId: string): boolean {
  return flowId.startsWith('pattern_');
}
