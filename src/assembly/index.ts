export {
  type AssembledDialogue,
  assembleDialogue,
  type DialogueAssemblyOptions,
} from './dialogueParts.js';
