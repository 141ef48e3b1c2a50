import type { TurnContext } from './context.js';
import type { DialogueModel } from './model.js';
import type { BotMessage } from './responses/botMessage.js';
import { renderResponse } from './responses/render.js';
import type { Turn } from './turn.js';

export interface UtterOptions {
  readonly random: () => number;
  readonly channel?: string;
  readonly context?: Readonly<Record<string, unknown>>;
  /** Values filled in over the slots, as Rasa's keyword arguments of a response. */
  readonly variables?: Readonly<Record<string, unknown>>;
}

/** How a turn renders responses: its random source, its channel, and a pattern's `context`. */
export function utterOptions(
  ctx: TurnContext,
  context: Readonly<Record<string, unknown>>,
): UtterOptions {
  return {
    random: ctx.ports.random,
    context,
    ...(ctx.channel !== undefined ? { channel: ctx.channel } : {}),
  };
}

/** Renders a response of the domain, or undefined when there is none or no variation fits. */
export function renderNamed(
  model: DialogueModel,
  turn: Turn,
  name: string,
  options: UtterOptions,
): BotMessage | undefined {
  const variations = model.responses[name];
  if (!variations) return undefined;
  return renderResponse(name, variations, {
    slots: turn.slots,
    slotTypes: model.slots,
    random: options.random,
    ...(options.channel !== undefined ? { channel: options.channel } : {}),
    ...(options.context !== undefined ? { context: options.context } : {}),
    ...(options.variables !== undefined ? { variables: options.variables } : {}),
  });
}

/** Says a response; false when the domain has no such response or no variation fits. */
export function utter(
  model: DialogueModel,
  turn: Turn,
  name: string,
  options: UtterOptions,
): boolean {
  const message = renderNamed(model, turn, name, options);
  if (!message) return false;
  turn.say(message);
  return true;
}
