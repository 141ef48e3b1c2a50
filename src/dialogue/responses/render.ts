import type { ResponseVariation } from '../../assistant/index.js';
import { conditionHolds } from '../../assistant/index.js';
import { promptEnvironment } from '../../prompts/environment.js';
import { pythonStr } from '../../prompts/python.js';
import type { BotMessage } from './botMessage.js';

type Slots = Readonly<Record<string, unknown>>;

/** What chooses a variation: the slots conditions read, the output channel, a random source. */
export interface RenderOptions {
  readonly slots: Slots;
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

/** Replaces `{slot}` with the slot's value, formatted as Rasa (Python) would; other braces stay. */
export function fillTemplate(text: string, slots: Slots): string {
  return text.replace(PLACEHOLDER, (placeholder, name: string) =>
    Object.hasOwn(slots, name) ? formatValue(slots[name]) : placeholder,
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
  const fill =
    variation.metadata?.template === 'jinja'
      ? (text: string) => fillJinja(text, options)
      : (text: string) => fillTemplate(text, options.slots);
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

function formatValue(value: unknown): string {
  // Rasa fills `{slot}` with Python's str(): None, True, ['a', 'b'], {'k': 1}.
  return pythonStr(value ?? null);
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
 * as `slots`) and the pattern's `context`.
 */
function fillJinja(text: string, options: RenderOptions): string {
  return promptEnvironment().renderString(text, {
    ...options.slots,
    slots: options.slots,
    context: options.context ?? {},
  });
}
