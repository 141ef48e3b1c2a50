import type { Assistant } from '../config/index.js';
import { CommandGenerationError, generateCommands } from './commandGenerator/generate.js';
import { processCommands } from './commandProcessor.js';
import type { Command } from './commands/command.js';
import type { TurnContext } from './context.js';
import type { DialogueEvent } from './events.js';
import { runUntilSettled } from './executor.js';
import { failCurrentActivity } from './frameLifecycle.js';
import { buildDialogueModel, type DialogueModel, initialSlots } from './model.js';
import type { DialoguePorts } from './ports.js';
import type { BotMessage } from './responses/botMessage.js';
import { type ConversationState, initialState } from './state.js';
import { Turn } from './turn.js';

/** A message from the user. */
export interface UserMessage {
  readonly text: string;
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/** What a turn produced: the new state, the events it wrote and the messages to send. */
export interface TurnResult {
  readonly state: ConversationState;
  readonly events: readonly DialogueEvent[];
  readonly messages: readonly BotMessage[];
  readonly commands: readonly Command[];
}

export interface TurnOptions {
  /** The output channel's name, for channel-specific response variations. */
  readonly channel?: string;
  readonly signal?: AbortSignal;
}

/**
 * The dialogue engine: holds a conversation the way a Rasa user expects. Pure: it reads and
 * returns state, and reaches the world (LLM, agents, tools, actions) only through its ports.
 */
export class DialogueEngine {
  readonly model: DialogueModel;

  constructor(assistant: Assistant) {
    this.model = buildDialogueModel(assistant);
  }

  /** A new conversation. */
  start(senderId: string): ConversationState {
    return initialState(senderId, initialSlots(this.model));
  }

  /** Handles one user message: commands, then flows and agents until the assistant waits. */
  async handleMessage(
    state: ConversationState,
    message: UserMessage,
    ports: DialoguePorts,
    options: TurnOptions = {},
  ): Promise<TurnResult> {
    const previousBotMessages = botMessagesOf(state.last_bot_events);
    const turn = new Turn(state, ports.now, message.text);
    const ctx: TurnContext = { model: this.model, turn, ports, ...options };

    let commands: Command[] = [];
    let generationFailure: string | undefined;
    try {
      ({ commands } = await generateCommands(
        this.model,
        state,
        message.text,
        ports.llm,
        options.signal,
      ));
    } catch (error) {
      if (!(error instanceof CommandGenerationError)) throw error;
      generationFailure = error.message;
    }
    turn.emit({
      event: 'user',
      text: message.text,
      ...(message.metadata ? { metadata: { ...message.metadata } } : {}),
      commands,
    });

    if (generationFailure !== undefined) failCurrentActivity(ctx, generationFailure);
    else processCommands(ctx, commands, previousBotMessages);
    await this.settle(ctx);
    turn.flushStack();
    return { state: turn.state, events: turn.events, messages: turn.messages, commands };
  }

  /** Runs until the assistant waits; a fault ends the current flow with the error pattern. */
  private async settle(ctx: TurnContext): Promise<void> {
    try {
      await runUntilSettled(ctx);
    } catch (error) {
      if (ctx.signal?.aborted) throw error;
      failCurrentActivity(ctx, error instanceof Error ? error.message : String(error));
      // The error pattern only speaks; if even that fails, the fault is the engine's own.
      await runUntilSettled(ctx);
    }
  }
}

function botMessagesOf(events: readonly DialogueEvent[]): BotMessage[] {
  return events.flatMap((e) => {
    if (e.event !== 'bot') return [];
    const { event: _e, timestamp: _t, metadata, ...message } = e;
    const response = typeof metadata?.utter_action === 'string' ? metadata.utter_action : undefined;
    return [{ ...message, ...(response ? { response } : {}) }];
  });
}
