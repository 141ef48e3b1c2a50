import type { Command } from './commands/command.js';
import type { DialogueEvent } from './events.js';
import type { BotMessage } from './responses/botMessage.js';
import type { ConversationState } from './state.js';

/** What a turn produced: the new state, the events it wrote and the messages to send. */
export interface TurnResult {
  readonly state: ConversationState;
  readonly events: readonly DialogueEvent[];
  readonly messages: readonly BotMessage[];
  readonly commands: readonly Command[];
}
