export type { AgentInputSlot } from './agentProtocol.js';
export { AgentInput, AgentOutput, AgentSlotEvent, AgentStatus } from './agentProtocol.js';
export type {
  A2AServerSettings,
  A2ASubAgent,
  AgentCardSource,
  Assistant,
  CommandGeneratorSettings,
  McpServer,
  ModuleLocation,
  PromptTemplateFile,
  ReactSubAgent,
  RephraserSettings,
  SubAgent,
} from './assistant.js';
export { deepFreeze, summarize } from './assistant.js';
export type { ComparisonOperator, Condition, LiteralValue } from './conditions/ast.js';
export { referencedContext, referencedSlots } from './conditions/ast.js';
export type { ConditionScope } from './conditions/evaluate.js';
export { conditionHolds, evaluateCondition, evaluateOperand } from './conditions/evaluate.js';
export { ConditionSyntaxError, parseCondition } from './conditions/parse.js';
export type { KindedStep, StepOfKind } from './flowSteps.js';
export { END, isTemplated, kindedStep, stepKind } from './flowSteps.js';
export {
  BUILTIN_ACTIONS,
  BUILTIN_RESPONSES,
  BUILTIN_SLOTS,
  isPatternId,
  PATTERN,
  PATTERN_CONTEXT_KEYS,
  PATTERN_FLOWS,
} from './patterns/builtins.js';
export { NATIVE_PATTERN, NATIVE_PATTERN_STEPS } from './patterns/nativePatterns.js';
export {
  AssistantConfigFile,
  COMMAND_GENERATORS,
  CommandGeneratorConfig,
} from './schemas/assistantConfig.js';
export {
  AUTH_METHOD_KEYS,
  LlmConfig,
  OAuthConfig,
  SecretRef,
  strictObject,
} from './schemas/common.js';
export {
  CallbackChannelSettings,
  type ChannelSettings,
  CredentialsFile,
  SlackChannelSettings,
  SocketIoChannelSettings,
  TelegramChannelSettings,
  TwilioChannelSettings,
} from './schemas/credentials.js';
export {
  ActionEntry,
  actionEntryName,
  Button,
  DomainFile,
  MappingCondition,
  NLU_MAPPING_TYPES,
  ResponseVariation,
  SessionConfig,
  SLOT_MAPPING_TYPES,
  SlotDefinition,
  SlotMapping,
  SlotType,
} from './schemas/domain.js';
export {
  A2AServerAuth,
  A2AServerConfig,
  A2AServerSkill,
  ActionEndpointConfig,
  AgentVectorStore,
  ConversationSecret,
  EndpointsFile,
  type KnowledgeSource,
  McpServerConfig,
  McpVectorStore,
  MetaMap,
  ModelGroup,
  NLG_KEYS,
  NLG_SERVER,
  NlgConfig,
  PYTHON_CLASS,
  RASA_REPHRASER_CLASSES,
  REPHRASE_NLG,
  VectorStoreConfig,
} from './schemas/endpoints.js';
export type {
  ActionStep,
  CallStep,
  CollectStep,
  FlowStep,
  LinkStep,
  Next,
  NextBranch,
  NoopStep,
  SetSlotsStep,
  StepKind,
} from './schemas/flows.js';
export { FlowDefinition, FlowsFile, STEP_KINDS } from './schemas/flows.js';
export { knownKeysOf, unknownKeyHint } from './schemas/knownKeys.js';
export {
  A2AAgentFile,
  A2AConfiguration,
  AgentSection,
  McpConnection,
  ReactAgentFile,
  ReactConfiguration,
} from './schemas/subAgent.js';
export { DEFAULT_SESSION, type SessionSettings, sessionSettings } from './session.js';
