import * as z from 'zod';
import {
  authShape,
  LlmConfig,
  ModulePath,
  modelSettingsShape,
  NonEmptyString,
  PositiveNumber,
  SecretRef,
  strictObject,
} from './common.js';

export const MetaMap = strictObject({
  static: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
  from_slots: z.array(strictObject({ slot: NonEmptyString, param: NonEmptyString })).optional(),
});
export type MetaMap = z.infer<typeof MetaMap>;

/**
 * The built-in call-time credential hook: reads a per-conversation secret (a JSON object) and
 * sends some of its keys as `_meta`. `{sender_id}` in `secret_id` is the conversation's id.
 */
export const ConversationSecret = strictObject({
  secret_id: NonEmptyString.refine((id) => id.includes('{sender_id}'), {
    error: 'must contain the placeholder {sender_id}, so that each conversation has its own secret',
  }),
  /** `_meta` key → key of the secret's JSON object. */
  metadata: z
    .record(NonEmptyString, NonEmptyString)
    .refine((map) => Object.keys(map).length > 0, { error: 'must map at least one _meta key' }),
  /** Seconds a secret's value is kept in the warm container. */
  cache_ttl: z.number().min(0).default(300),
});
export type ConversationSecret = z.infer<typeof ConversationSecret>;

export const McpServerConfig = strictObject({
  name: NonEmptyString,
  url: NonEmptyString.pipe(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' })),
  /** Optional in files: taken from the URL's scheme when absent. */
  type: z.enum(['http', 'https']).optional(),
  ...authShape,
  pre_call_hook: ModulePath.optional(),
  conversation_secret: ConversationSecret.optional(),
  meta_map: MetaMap.optional(),
  /**
   * Every tool of the server only reads: an agent runs its calls in the same job as the model
   * call that asked for them (one job per iteration), and again after a lost commit.
   */
  read_only: z.boolean().optional(),
  /** The tools of the server that only read (see `read_only`). */
  read_only_tools: z.array(NonEmptyString).optional(),
  /**
   * Counts a tool whose `annotations.readOnlyHint` is true as read-only. Off by default: the MCP
   * specification treats annotations as hints that a client must not rely on from a server it
   * does not trust.
   */
  trust_read_only_hints: z.boolean().optional(),
});
export type McpServerConfig = z.infer<typeof McpServerConfig>;

export const ModelConfig = strictObject(modelSettingsShape);
export type ModelConfig = z.infer<typeof ModelConfig>;

export const ModelGroup = strictObject({
  id: NonEmptyString,
  models: z.array(ModelConfig).min(1, { error: 'must list at least one model' }),
});
export type ModelGroup = z.infer<typeof ModelGroup>;

/** A skill the assistant's agent card advertises (by default, one per flow). */
export const A2AServerSkill = strictObject({
  id: NonEmptyString,
  name: NonEmptyString.optional(),
  description: NonEmptyString,
  tags: z.array(NonEmptyString).default([]),
  examples: z.array(NonEmptyString).default([]),
});
export type A2AServerSkill = z.infer<typeof A2AServerSkill>;

/**
 * How callers of the A2A server authenticate: an API key, and/or a JWT bearer token checked with
 * a shared secret (HS256) or the keys of a JWKS endpoint, against `issuer` and `audience`.
 */
export const A2AServerAuth = strictObject({
  /** A key callers send as `X-API-Key` (or as a bearer token). */
  api_key: SecretRef.optional(),
  issuer: NonEmptyString.optional(),
  audience: NonEmptyString.optional(),
  jwks_url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  secret: SecretRef.optional(),
}).refine((auth) => auth.api_key ?? auth.secret ?? auth.jwks_url, {
  error: 'needs api_key, secret or jwks_url: something to check callers with',
});
export type A2AServerAuth = z.infer<typeof A2AServerAuth>;

/** Switchboard as an A2A agent that other orchestrators call. */
export const A2AServerConfig = strictObject({
  /** The card's name; the project folder's name when absent. */
  name: NonEmptyString.optional(),
  description: NonEmptyString,
  url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  include_conversation_repair: z.boolean().default(true),
  task_timeout_seconds: z.number().min(0).default(600),
  a2a_message_cache_ttl_seconds: z.number().min(0).optional(),
  max_contexts: z.number().int().min(0).default(1000),
  agent_card_path: NonEmptyString.optional(),
  /** The card's skills; by default one per flow, from its description. */
  skills: z.array(A2AServerSkill).optional(),
  /** Whether callers may register push notification configs. */
  push_notifications: z.boolean().default(true),
  auth: A2AServerAuth.optional(),
});
export type A2AServerConfig = z.infer<typeof A2AServerConfig>;

/**
 * Where the project's custom actions run outside Switchboard: a Rasa action server (`url`,
 * spoken to with Rasa's action server protocol), or Rasa's in-process Python module
 * (`actions_module`), which Switchboard cannot run.
 */
export const ActionEndpointConfig = strictObject({
  url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  actions_module: NonEmptyString.optional(),
  /** Sent as the `token_name` query parameter (default `token`), as Rasa does. */
  token: SecretRef.optional(),
  token_name: NonEmptyString.optional(),
  headers: z.record(z.string(), z.string()).optional(),
  /** Seconds an action may take (default 10), within the job's deadline. */
  timeout: PositiveNumber.optional(),
  /** Retries after a connection failure or a 5xx answer (default 2). */
  max_retries: z.number().int().min(0).optional(),
  /** Send the domain only to actions whose domain entry says `send_domain: true`, as Rasa does. */
  enable_selective_domain: z.boolean().optional(),
});
export type ActionEndpointConfig = z.infer<typeof ActionEndpointConfig>;

/** `nlg.type` of Rasa's contextual response rephraser. */
export const REPHRASE_NLG = 'rephrase';
/** `nlg.type` of Rasa's external NLG server (also assumed for a block with a `url` and no type). */
export const NLG_SERVER = 'callback';

/** A dotted Python path such as `custom.rephraser.MyRephraser`: a rephraser class of the project. */
export const PYTHON_CLASS = /^[A-Za-z_]\w*(\.[A-Za-z_]\w*)+$/;

/**
 * The class paths of Rasa's own rephraser, which `type: rephrase` names: Rasa Pro 3.7 and earlier
 * named it `rasa_plus.ml.ContextualResponseRephraser`.
 */
export const RASA_REPHRASER_CLASSES: ReadonlySet<string> = new Set([
  'rasa_plus.ml.ContextualResponseRephraser',
  'rasa.core.nlg.contextual_response_rephraser.ContextualResponseRephraser',
]);

const nlgShape = {
  type: z.string().refine((t) => t === REPHRASE_NLG || t === NLG_SERVER || PYTHON_CLASS.test(t), {
    error:
      'must be "rephrase" (the contextual response rephraser) or the dotted path of a Python rephraser class such as "custom.rephraser.MyRephraser"',
  }),
  /** Rephrase every response, not only those whose metadata asks for it. */
  rephrase_all: z.boolean().default(false),
  /** Give the prompt a model-written summary of the recent turns instead of their transcript. */
  summarize_history: z.boolean().default(true),
  max_historical_turns: z.number().int().min(0, { error: 'must be 0 or more' }).default(5),
  count_multiple_utterances_as_single_turn: z.boolean().default(true),
  /** A Jinja2 prompt file, relative to the project (`prompt` is Rasa's older name). */
  prompt_template: NonEmptyString.optional(),
  prompt: NonEmptyString.optional(),
  llm: LlmConfig.optional(),
};

/**
 * Rasa's `nlg` endpoint. An NLG server block (a `url`) is reduced to its type; Rasa's rephraser
 * named by its class is `rephrase`; another Python class keeps the rephraser keys only, as its own
 * keys are for code that does not run here.
 */
function normalizeNlg(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const block = value as Record<string, unknown>;
  if ('url' in block && (block.type === undefined || block.type === NLG_SERVER)) {
    return { type: NLG_SERVER };
  }
  if (typeof block.type === 'string' && RASA_REPHRASER_CLASSES.has(block.type)) {
    return { ...block, type: REPHRASE_NLG };
  }
  if (typeof block.type === 'string' && PYTHON_CLASS.test(block.type)) {
    // Rasa's older rephraser settings name the model group beside the type.
    const { model_group: group, ...rest } = block;
    const kept = Object.fromEntries(Object.entries(rest).filter(([key]) => key in nlgShape));
    return group !== undefined && kept.llm === undefined
      ? { ...kept, llm: { model_group: group } }
      : kept;
  }
  return value;
}

/** The keys Switchboard's rephraser reads in an `nlg` block (and `model_group`, for its llm). */
export const NLG_KEYS: ReadonlySet<string> = new Set([...Object.keys(nlgShape), 'model_group']);

/** Response rephrasing (`nlg` in endpoints.yml). */
export const NlgConfig = z.preprocess(
  normalizeNlg,
  strictObject(nlgShape, {
    model_group: (group) =>
      `Rasa reads the rephraser's model only from llm, so it would not use this model group; write "llm: {model_group: ${typeof group === 'string' ? group : JSON.stringify(group)}}" instead`,
  }),
);
export type NlgConfig = z.infer<typeof NlgConfig>;

/**
 * Switchboard's own knowledge source for `action_trigger_search`: a search tool of one of the
 * project's MCP servers, called with the user's question.
 */
export const McpVectorStore = strictObject({
  type: z.literal('mcp'),
  /** An MCP server of `mcp_servers`. */
  server: NonEmptyString,
  tool: NonEmptyString,
  /** The argument that carries the question. */
  query_param: NonEmptyString.default('query'),
  /** Further arguments sent with every search, such as a collection or a result count. */
  arguments: z.record(z.string(), z.unknown()).optional(),
});
export type McpVectorStore = z.infer<typeof McpVectorStore>;

/** A sub agent that answers the knowledge question itself. */
export const AgentVectorStore = strictObject({
  type: z.literal('agent'),
  agent: NonEmptyString,
});
export type AgentVectorStore = z.infer<typeof AgentVectorStore>;

/** One of Rasa's own vector stores (Qdrant, Milvus, a Python class): read by Rasa only. */
const RasaVectorStore = z.object({ type: z.literal('rasa'), rasa_type: z.string() });

/** Kept apart from Switchboard's kinds, whose keys are checked; Rasa's are not read. */
function normalizeVectorStore(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const type = (value as Record<string, unknown>).type;
  if (type === 'mcp' || type === 'agent') return value;
  return { type: 'rasa', rasa_type: typeof type === 'string' ? type : 'faiss' };
}

/** `vector_store` in endpoints.yml: what answers `action_trigger_search`. */
export const VectorStoreConfig = z.preprocess(
  normalizeVectorStore,
  z.discriminatedUnion('type', [McpVectorStore, AgentVectorStore, RasaVectorStore]),
);
export type VectorStoreConfig = z.infer<typeof VectorStoreConfig>;

/** The vector stores Switchboard searches itself. */
export type KnowledgeSource = McpVectorStore | AgentVectorStore;

export const EndpointsFile = strictObject({
  action_endpoint: ActionEndpointConfig.optional(),
  mcp_servers: z.array(McpServerConfig).default([]),
  model_groups: z.array(ModelGroup).default([]),
  a2a_server: A2AServerConfig.optional(),
  nlg: NlgConfig.optional(),
  vector_store: VectorStoreConfig.optional(),
});
export type EndpointsFile = z.infer<typeof EndpointsFile>;
