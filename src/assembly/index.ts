export {
  AgentModuleError,
  agentRunners,
  loadAgentClasses,
  type ProjectAgentsOptions,
  projectAgents,
} from './agentRunners.js';
export {
  type AssembledDialogue,
  assembleDialogue,
  type DialogueAssemblyOptions,
} from './dialogueParts.js';
