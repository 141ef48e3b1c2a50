export {
  AgentModuleError,
  agentRunners,
  loadAgentClasses,
  OnDemandA2ARunner,
  type ProjectAgentsOptions,
  projectAgents,
} from './agentRunners.js';
export {
  type AssembledDialogue,
  assembleDialogue,
  type DialogueAssemblyOptions,
} from './dialogueParts.js';
