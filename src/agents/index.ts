export { A2AAgent, type A2AAgentClass, isA2AAgentClass } from '../a2a/index.js';
export type { AgentInput } from '../assistant/index.js';
export {
  defaultClosingInstruction,
  defaultTaskCompletedTool,
  exitSlots,
  SET_SLOT_PREFIX,
  setSlotTool,
  TASK_COMPLETED,
  TASK_COMPLETED_RESULT,
} from './builtinTools.js';
export { TemplateDateTime } from './dateTime.js';
export { fitRecord } from './fitRecord.js';
export { PREVIOUS_RUN_END, PREVIOUS_RUN_MARK } from './history.js';
export { systemPrompt } from './modelPhase.js';
export {
  agentTemplate,
  OPEN_AGENT_TEMPLATE,
  type PromptVariables,
  renderPrompt,
  TASK_AGENT_TEMPLATE,
} from './prompts.js';
export type {
  AgentStep,
  AgentStepPhase,
  AgentStepResult,
  AgentToolContext,
  AgentToolResult,
  CustomToolDefinition,
} from './protocol.js';
export {
  isReactAgentClass,
  McpBaseAgent,
  McpOpenAgent,
  McpTaskAgent,
  type ReactAgentClass,
} from './reactAgent.js';
export { ReactRunner } from './reactRunner.js';
export {
  MAX_MODEL_CALLS,
  MAX_RUN_BYTES,
  OMITTED_RESULT,
  ReactRunData,
  runScope,
} from './runData.js';
export type { ReactRunnerOptions } from './stepState.js';
