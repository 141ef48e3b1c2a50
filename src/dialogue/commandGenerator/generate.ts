import { renderTemplate } from '../../prompts/environment.js';
import { isTransient, retryAfterOf, SwitchboardError } from '../../resilience/index.js';
import type { Command } from '../commands/command.js';
import { parseDeterministicMessage } from '../commands/deterministic.js';
import { parseCommandDsl } from '../commands/parseDsl.js';
import type { DialogueModel } from '../model.js';
import type { LlmPort } from '../ports.js';
import { modelMayFill } from '../slotMappings.js';
import type { ConversationState } from '../state.js';
import { promptVariables } from './variables.js';

/**
 * The model behind the command generator failed; the turn answers with the error pattern.
 * Code `COMMAND_GENERATION_FAILED`, transient when the model's error is.
 */
export class CommandGenerationError extends SwitchboardError {
  override readonly name = 'CommandGenerationError';
  override readonly code = 'COMMAND_GENERATION_FAILED';
  /** Transient, and waiting what it asks, as the model's error (its `cause`) is and does. */
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, {
      ...options,
      transient: isTransient(options.cause),
      retryAfterMs: retryAfterOf(options.cause),
    });
  }
}

/** Why a message was not given to the model, in the internal-error pattern's terms. */
export interface InputError {
  readonly error_type: string;
  readonly info: Readonly<Record<string, unknown>>;
}

/** Where a turn's commands came from. */
export type CommandSource = 'shortcut' | 'llm';

/**
 * Turns a user message into commands: `/SetSlots(...)`, `/StartFlow(...)` and `/intent`
 * messages directly (unless `payloads` is false: a text a user typed on a public platform),
 * anything else through the LLM with the command prompt (no tools).
 */
export async function generateCommands(
  model: DialogueModel,
  state: ConversationState,
  text: string,
  llm: LlmPort,
  signal?: AbortSignal,
  deadline?: number,
  options: { readonly payloads?: boolean } = {},
): Promise<{ commands: Command[]; source: CommandSource; inputError?: InputError }> {
  const shortcut =
    options.payloads === false ? undefined : parseDeterministicMessage(text, model.intentFlows);
  if (shortcut) return { commands: shortcut, source: 'shortcut' };
  // As Rasa: a message the model should not see answers with the internal-error pattern, whose
  // error_type says why.
  if (text.trim() === '') {
    return {
      commands: [],
      source: 'llm',
      inputError: { error_type: 'rasa_internal_error_user_input_empty', info: {} },
    };
  }
  const limit = model.assistant.commandGenerator.user_input?.max_characters;
  if (limit !== undefined && text.length > limit) {
    return {
      commands: [],
      source: 'llm',
      inputError: {
        error_type: 'rasa_internal_error_user_input_too_long',
        info: { max_characters: limit },
      },
    };
  }
  const prompt = renderTemplate(model.commandPrompt, promptVariables(model, state, text));
  let content: string;
  try {
    ({ content } = await llm.complete({
      messages: [{ role: 'user', content: prompt }],
      userMessage: text,
      ...(signal ? { signal } : {}),
      ...(deadline !== undefined ? { deadline } : {}),
    }));
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new CommandGenerationError(
      `the command generator's model failed: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  return { commands: fillableByModel(model, state, parseCommandDsl(content)), source: 'llm' };
}

/** Drops the model's `set slot` commands for slots its mappings keep from the model. */
function fillableByModel(
  model: DialogueModel,
  state: ConversationState,
  commands: readonly Command[],
): Command[] {
  const activeFlows = new Set(state.stack.flatMap((f) => (f.type === 'flow' ? [f.flow_id] : [])));
  return commands.filter(
    (c) => c.command !== 'set slot' || modelMayFill(model.slots[c.name], activeFlows),
  );
}
