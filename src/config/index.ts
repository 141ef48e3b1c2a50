export type {
  A2ASubAgent,
  Assistant,
  CommandGeneratorSettings,
  McpServer,
  ReactSubAgent,
  SubAgent,
} from './assistant.js';
export { summarize } from './assistant.js';
export type { Diagnostic, IgnoredKey } from './diagnostics.js';
export { ConfigError, formatDiagnostic, relativeFile } from './diagnostics.js';
export { projectEnvironment } from './env.js';
export type { Environment } from './interpolate.js';
export type { LoadOptions, LoadResult } from './loadAssistant.js';
export { loadAssistant } from './loadAssistant.js';
export type { ModuleLocation } from './modules.js';
export type { AgentCardSource } from './rules/agentCard.js';
export { END, stepKind } from './rules/flowRules.js';
export type { PromptTemplateFile } from './rules/references.js';
export type { CommandGeneratorConfig } from './schemas/assistantConfig.js';
export type { LlmConfig, OAuthConfig, SecretRef } from './schemas/common.js';
export type { Button, ResponseVariation, SlotDefinition, SlotType } from './schemas/domain.js';
export type { A2AServerConfig, McpServerConfig, MetaMap, ModelGroup } from './schemas/endpoints.js';
export type {
  ActionStep,
  CallStep,
  CollectStep,
  FlowDefinition,
  FlowStep,
  LinkStep,
  Next,
  NextBranch,
  NoopStep,
  SetSlotsStep,
} from './schemas/flows.js';
export type { A2AConfiguration, McpConnection, ReactConfiguration } from './schemas/subAgent.js';
