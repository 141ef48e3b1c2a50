export {
  type AssembledDialogue,
  assembleDialogue,
  type DialogueAssemblyOptions,
  type DialogueLogger,
} from './dialogueParts.js';
