import { type PathPattern, pattern } from './pathPattern.js';

/** The kinds of files in an assistant project. */
export type FileKind = 'config' | 'endpoints' | 'domain' | 'flows' | 'subAgent';

const patterns = (...list: string[]): PathPattern[] => list.map(pattern);

/**
 * Keys that Rasa projects carry but Switchboard does not use. They load without error and are
 * listed once, so a Rasa project runs unchanged.
 */
export const IGNORED_KEYS: Readonly<Record<FileKind, readonly PathPattern[]>> = {
  config: patterns(
    'recipe',
    'language',
    'assistant_id',
    'policies',
    'spaces',
    'core_target',
    'nlu_target',
    'pipeline.*.flow_retrieval',
    'pipeline.*.minimize_num_calls',
  ),
  endpoints: patterns(
    'action_endpoint',
    'nlg.trace_prompt_tokens',
    'nlg.llm.request_timeout',
    'tracker_store',
    'lock_store',
    'event_broker',
    'models',
    'vector_store',
    'contextual_response_rephraser',
    'nlu_command_adapter',
    'model_groups.*.router',
    'model_groups.*.models.*.request_timeout',
    'model_groups.*.models.*.use_chat_completions_endpoint',
  ),
  domain: patterns(
    'version',
    'actions',
    'forms',
    'entities',
    'session_config',
    'config',
    'e2e_actions',
    'slots.*.mappings',
    'slots.*.influence_conversation',
    'slots.*.shared_for_coexistence',
    'responses.*.*.allow_interruptions',
  ),
  flows: patterns(
    'version',
    'nlu',
    'stories',
    'rules',
    'flows.*.**.silence_timeout',
    'flows.*.**.dtmf',
  ),
  subAgent: patterns('configuration.llm.request_timeout'),
};

/** Credential keys: each must be a whole `${VAR}` reference. */
export const SECRET_KEYS: Readonly<Record<FileKind, readonly PathPattern[]>> = {
  config: patterns('pipeline.*.llm.api_key'),
  endpoints: patterns(
    'mcp_servers.*.api_key',
    'mcp_servers.*.token',
    'mcp_servers.*.oauth.client_secret',
    'model_groups.*.models.*.api_key',
    'a2a_server.auth.secret',
    'nlg.llm.api_key',
  ),
  domain: [],
  flows: [],
  subAgent: patterns(
    'configuration.llm.api_key',
    'configuration.auth.api_key',
    'configuration.auth.token',
    'configuration.auth.oauth.client_secret',
  ),
};
