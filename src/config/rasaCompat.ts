import { type PathPattern, pattern } from './pathPattern.js';

/** The kinds of files in an assistant project. */
export type FileKind = 'config' | 'endpoints' | 'credentials' | 'domain' | 'flows' | 'subAgent';

/**
 * A key Rasa projects carry that Switchboard does not use. Without a reason it is listed once
 * per file among the ignored keys; with one, the reason is given as a note of its own, since the
 * key changes what Rasa would do. Keys of the NLU family are reported together, once.
 */
export interface IgnoredKeyRule {
  readonly pattern: PathPattern;
  readonly reason?: string;
  readonly nlu?: boolean;
  /** Dropped without a word: keys such as `version` that every Rasa file carries. */
  readonly silent?: boolean;
  /** Applies only where the object holding the key has this key too. */
  readonly besides?: string;
  /** Applies to any key the pattern matches but these. */
  readonly unless?: readonly string[];
  /**
   * The key asks for something Switchboard does not do and users must not miss (privacy): its
   * reason is a warning, repeated on every start, not a note.
   */
  readonly warning?: boolean;
}

const plain = (...list: string[]): IgnoredKeyRule[] => list.map((p) => ({ pattern: pattern(p) }));
const because = (p: string, reason: string): IgnoredKeyRule => ({ pattern: pattern(p), reason });
const nlu = (...list: string[]): IgnoredKeyRule[] =>
  list.map((p) => ({ pattern: pattern(p), nlu: true }));
const silent = (p: string): IgnoredKeyRule => ({ pattern: pattern(p), silent: true });
const warning = (p: string, reason: string): IgnoredKeyRule => ({
  pattern: pattern(p),
  reason,
  warning: true,
});

/** The top-level keys of `credentials.yml` that name a channel Switchboard serves. */
export const CHANNELS = ['rest', 'callback', 'slack', 'telegram', 'twilio', 'socketio'] as const;

const STORES =
  'Switchboard keeps conversations in DynamoDB and orders their work through SQS, on AWS and locally';

/**
 * Keys that Rasa projects carry but Switchboard does not use. They load without error and are
 * reported once, so a Rasa project runs unchanged and its author knows what does not apply.
 */
export const IGNORED_KEYS: Readonly<Record<FileKind, readonly IgnoredKeyRule[]>> = {
  config: [
    ...plain(
      'recipe',
      'language',
      'assistant_id',
      'policies',
      'spaces',
      'core_target',
      'nlu_target',
      'pipeline.*.flow_retrieval',
      'pipeline.*.minimize_num_calls',
      'pipeline.*.llm.cache',
    ),
  ],
  endpoints: [
    because('tracker_store', `not used: ${STORES}`),
    because('lock_store', `not used: ${STORES}`),
    because('event_broker', `not used: ${STORES}; the tracker route gives each event`),
    because('timer_store', `not used: ${STORES}; delayed work waits on Switchboard's own queue`),
    because(
      'tracing',
      'not used: the deployed functions trace with AWS X-Ray when deployed with -c tracing=true',
    ),
    because('metrics', 'not used: the deployed functions report to CloudWatch'),
    because('models', 'not used: a deployment ships its project; no model server is read'),
    because('model', 'not used: a deployment ships its project; no model server is read'),
    because(
      'secrets_manager',
      'not used: Switchboard reads credentials from AWS Secrets Manager when deployed and from the environment or .env locally, never from Vault',
    ),
    because(
      'nlu',
      'not used: Switchboard runs no NLU model; the command generator reads every message',
    ),
    because(
      'interaction_handling',
      'not used: no channel of Switchboard times out on silence, so pattern_user_silence runs only when a channel sends /silence_timeout',
    ),
    warning(
      'privacy',
      'Switchboard does not mask or delete PII: the anonymization rules and the deletion and anonymization schedules are not applied, so slot values and messages are stored, shown by the tracker route and sent to models as they are',
    ),
    ...plain(
      'nlg.trace_prompt_tokens',
      'contextual_response_rephraser',
      'nlu_command_adapter',
      'model_groups.*.router',
      'model_groups.*.models.*.use_chat_completions_endpoint',
    ),
  ],
  domain: [
    silent('version'),
    ...plain(
      'config',
      'e2e_actions',
      'slots.*.influence_conversation',
      'slots.*.shared_for_coexistence',
      'responses.*.*.allow_interruptions',
    ),
    ...nlu('forms', 'entities'),
  ],
  flows: [
    silent('version'),
    {
      pattern: pattern('flows.*.**.next.*.next'),
      besides: 'else',
      reason: 'ignored: Rasa reads only "else" in an else branch, so this next is never taken',
    },
    ...plain('flows.*.**.silence_timeout', 'flows.*.**.dtmf'),
    ...nlu('nlu', 'stories', 'rules'),
    {
      pattern: pattern('*'),
      unless: ['flows'],
      reason:
        'not read: a flows file holds "flows" (Rasa\'s flows schema lets other top-level keys be and ignores them, as Switchboard does)',
    },
  ],
  subAgent: [],
  credentials: [
    {
      pattern: pattern('*'),
      unless: [...CHANNELS],
      reason:
        'not a channel Switchboard serves: it serves rest, callback, slack, telegram, twilio and socketio (the web chat)',
    },
    because(
      'slack.slack_retry_reason_header',
      "not used: Switchboard takes a retried Slack event once, by its message's channel and timestamp",
    ),
    because(
      'slack.slack_retry_number_header',
      "not used: Switchboard takes a retried Slack event once, by its message's channel and timestamp",
    ),
    because(
      'slack.errors_ignore_retry',
      "not used: Switchboard takes a retried Slack event once, by its message's channel and timestamp",
    ),
    because('socketio.socketio_path', 'not used: the local stack serves socket.io at /socket.io/'),
    because(
      'socketio.jwt_key',
      'not used: a socket.io client gives the REST token (SWITCHBOARD_REST_TOKEN) as auth.token',
    ),
    because(
      'socketio.jwt_method',
      'not used: a socket.io client gives the REST token (SWITCHBOARD_REST_TOKEN) as auth.token',
    ),
    because('socketio.metadata_key', 'not used: socket.io messages carry no metadata here'),
    because('slack.proxy', 'not used: replies go to Slack directly'),
    because(
      'slack.conversation_granularity',
      'not used: a Slack conversation is one user in one channel',
    ),
  ],
};

/** Credential keys: each must be a whole `${VAR}` reference. */
export const SECRET_KEYS: Readonly<Record<FileKind, readonly PathPattern[]>> = {
  config: [pattern('pipeline.*.llm.api_key')],
  endpoints: [
    'action_endpoint.token',
    'mcp_servers.*.api_key',
    'mcp_servers.*.token',
    'mcp_servers.*.oauth.client_secret',
    'model_groups.*.models.*.api_key',
    'a2a_server.auth.secret',
    'a2a_server.auth.api_key',
    'nlg.llm.api_key',
  ].map(pattern),
  credentials: [
    'slack.slack_token',
    'slack.slack_signing_secret',
    'telegram.access_token',
    'telegram.secret_token',
    'twilio.auth_token',
  ].map(pattern),
  domain: [],
  flows: [],
  subAgent: [
    'configuration.llm.api_key',
    'configuration.auth.api_key',
    'configuration.auth.token',
    'configuration.auth.oauth.client_secret',
  ].map(pattern),
};
