import type { ResponseVariation } from '../../assistant/index.js';
import { conditionHolds } from '../../assistant/index.js';
import { promptEnvironment } from '../../prompts/environment.js';
import { pythonSlotStr, pythonSlotValue } from '../../prompts/python.js';
import type { BotMessage } from './botMessage.js';

type Slots = Readonly<Record<string, unknown>>;
/** Slot types by slot name: a float slot's value prints as a Python float. */
type SlotTypes = Readonly<Record<string, { readonly type: string } | undefined>>;

/** What chooses a variation: the slots conditions read, the output channel, a random source. */
export interface RenderOptions {
  readonly slots: Slots;
  /** The slots' definitions, for printing each value as Rasa holds it. */
  readonly slotTypes?: SlotTypes;
  /** Values filled in over the slots (Rasa's keyword arguments of a response, such as `value`). */
  readonly variables?: Readonly<Record<string, unknown>>;
  readonly channel?: string;
  /** Returns a number in [0, 1); defaults to Math.random. */
  readonly random?: () => number;
  /** What `{{ context.x }}` reads in variations whose `metadata.template` is `jinja`. */
  readonly context?: Readonly<Record<string, unknown>>;
}

/**
 * Chooses a variation as Rasa does: conditional before unconditional, channel-specific before
 * channel-less, at random within the first tier that has any. Undefined when none fits.
 */
export function selectVariation(
  variations: readonly ResponseVariation[],
  options: RenderOptions,
): ResponseVariation | undefined {
  const tiers: ResponseVariation[][] = [[], [], [], []];
  for (const variation of variations) {
    const tier = tierOf(variation, options);
    if (tier !== undefined) tiers[tier]?.push(variation);
  }
  const candidates = tiers.find((tier) => tier.length > 0);
  if (candidates === undefined) return undefined;
  const random = options.random ?? Math.random;
  // min() keeps a random source that returns exactly 1 inside the tier.
  const index = Math.min(Math.floor(random() * candidates.length), candidates.length - 1);
  return candidates[index];
}

/**
 * Replaces `{name}` with the value's text as Rasa (Python) writes it: `None`, `True`, `['a']`, and
 * a float slot's number as a float (`2000.0`), by `types`. Other braces stay.
 */
export function fillTemplate(text: string, values: Slots, types: SlotTypes = {}): string {
  return text.replace(PLACEHOLDER, (placeholder, name: string) =>
    Object.hasOwn(values, name) ? pythonSlotStr(values[name], types[name]?.type) : placeholder,
  );
}

/** Renders the chosen variation of a response into a message, filling slots into every text. */
export function renderResponse(
  name: string,
  variations: readonly ResponseVariation[],
  options: RenderOptions,
): BotMessage | undefined {
  const variation = selectVariation(variations, options);
  if (variation === undefined) return undefined;
  const values = { ...options.slots, ...options.variables };
  const types = slotTypesOf(options);
  const fill =
    variation.metadata?.template === 'jinja'
      ? (text: string) => fillJinja(text, options, types)
      : (text: string) => fillTemplate(text, values, types);
  const message: BotMessage = { response: name };
  if (variation.text !== undefined) message.text = fill(variation.text);
  if (variation.buttons !== undefined) {
    message.buttons = variation.buttons.map((b) => ({
      title: fill(b.title),
      payload: fill(b.payload),
    }));
  }
  if (variation.custom !== undefined) message.custom = fillDeep(variation.custom, fill);
  if (variation.image !== undefined) message.image = fill(variation.image);
  if (variation.metadata !== undefined) message.metadata = { ...variation.metadata };
  return message;
}

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** 0: conditional on this channel, 1: this channel, 2: conditional, 3: plain; undefined: excluded. */
function tierOf(variation: ResponseVariation, options: RenderOptions): number | undefined {
  const onChannel = variation.channel !== undefined;
  if (onChannel && variation.channel !== options.channel) return undefined;
  const { condition } = variation;
  // An empty list of slot checks constrains nothing, so it ranks as unconditional.
  const conditional = condition !== undefined && condition.length > 0;
  if (conditional && !holds(condition, options.slots)) return undefined;
  return (onChannel ? 0 : 2) + (conditional ? 0 : 1);
}

function holds(condition: NonNullable<ResponseVariation['condition']>, slots: Slots): boolean {
  if (typeof condition === 'string') return conditionHolds(condition, { slots });
  // Rasa's list form compares exactly: "true" does not satisfy `value: true`.
  return condition.every(
    ({ name, value }) => (Object.hasOwn(slots, name) ? (slots[name] ?? null) : null) === value,
  );
}

/** The types of the slots a template reads; a variable of the same name is no slot. */
function slotTypesOf(options: RenderOptions): SlotTypes {
  const { slotTypes = {}, variables } = options;
  if (variables === undefined) return slotTypes;
  return Object.fromEntries(
    Object.entries(slotTypes).filter(([n]) => !Object.hasOwn(variables, n)),
  );
}

function fillDeep(value: unknown, fill: (text: string) => string): unknown {
  if (typeof value === 'string') return fill(value);
  if (Array.isArray(value)) return value.map((item) => fillDeep(item, fill));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, fillDeep(item, fill)]),
  );
}

/**
 * Rasa's `template: jinja` responses: the text is a Jinja template over the slots (by name and
 * as `slots`), the response's variables and the pattern's `context`.
 */
function fillJinja(text: string, options: RenderOptions, types: SlotTypes): string {
  const slots = Object.fromEntries(
    Object.entries(options.slots).map(([name, value]) => [
      name,
      pythonSlotValue(value, types[name]?.type),
    ]),
  );
  return promptEnvironment().renderString(text, {
    ...slots,
    ...options.variables,
    slots,
    context: options.context ?? {},
  });
}
