import type { ActionResult, BotMessage } from '../dialogue/index.js';

/** One message an action asks for (the port's `ActionResponse`). */
export type ActionResponse = NonNullable<ActionResult['responses']>[number];

/** The keys of a message the SDK's dispatcher sends; any other key is a template variable. */
const MESSAGE_KEYS: ReadonlySet<string> = new Set([
  'text',
  'buttons',
  'elements',
  'custom',
  'template',
  'response',
  'image',
  'attachment',
  'quick_replies',
]);

/** Rich content a Switchboard message has no field for: it travels in `custom`. */
const EXTRA_KEYS = ['attachment', 'elements', 'quick_replies'] as const;

/**
 * One entry of an answer's `responses`, as the SDK's `dispatcher.utter_message` writes it:
 * `response` (or the older `template`) names a domain response, whose template variables are
 * the entry's other keys; without a name the entry is the message. Empty values (`None`, `[]`,
 * `{}`, `""`) say nothing, as in Rasa. Undefined when the entry says nothing at all.
 */
export function responseOf(entry: Readonly<Record<string, unknown>>): ActionResponse | undefined {
  const name = nonEmptyString(entry.response) ?? nonEmptyString(entry.template);
  const rest = Object.entries(entry).filter(([key]) => !MESSAGE_KEYS.has(key));
  if (name !== undefined) {
    const message = messageOf(entry, undefined);
    return {
      name,
      ...(rest.length > 0 ? { variables: Object.fromEntries(rest) } : {}),
      ...(message ? { message } : {}),
    };
  }
  const metadata = Object.fromEntries(rest.filter(([, value]) => !isEmpty(value)));
  const message = messageOf(entry, Object.keys(metadata).length > 0 ? metadata : undefined);
  return message ? { message } : undefined;
}

/** A `bot` event of an answer: `text`, with `data` holding buttons, image, custom and the rest. */
export function botEventResponse(
  text: unknown,
  data: Readonly<Record<string, unknown>> | undefined,
  metadata: Readonly<Record<string, unknown>> | undefined,
): ActionResponse | undefined {
  const message = messageOf({ ...data, text }, metadata);
  return message ? { message } : undefined;
}

/** The message the parts make, or undefined when they say nothing. */
function messageOf(
  parts: Readonly<Record<string, unknown>>,
  metadata: Readonly<Record<string, unknown>> | undefined,
): BotMessage | undefined {
  const text = nonEmptyString(parts.text);
  const image = nonEmptyString(parts.image);
  const buttons = buttonsOf(parts.buttons);
  const extras = Object.fromEntries(
    EXTRA_KEYS.filter((key) => !isEmpty(parts[key])).map((key) => [key, parts[key]]),
  );
  let custom = isEmpty(parts.custom) ? undefined : parts.custom;
  let meta = metadata;
  if (Object.keys(extras).length > 0) {
    if (custom === undefined || isPlainObject(custom)) {
      custom = { ...(custom as Record<string, unknown> | undefined), ...extras };
    } else {
      meta = { ...meta, ...extras };
    }
  }
  if (text === undefined && image === undefined && buttons === undefined && custom === undefined) {
    return undefined;
  }
  return {
    ...(text !== undefined ? { text } : {}),
    ...(buttons ? { buttons } : {}),
    ...(image !== undefined ? { image } : {}),
    ...(custom !== undefined ? { custom } : {}),
    ...(meta && Object.keys(meta).length > 0 ? { metadata: { ...meta } } : {}),
  };
}

/** Buttons with a title; the payload is the button's `payload`, else its `url`, else its title. */
function buttonsOf(value: unknown): BotMessage['buttons'] {
  if (!Array.isArray(value)) return undefined;
  const buttons = value.flatMap((button) => {
    if (!isPlainObject(button) || button.title === undefined || button.title === null) return [];
    const title = String(button.title);
    const payload = nonEmptyString(button.payload) ?? nonEmptyString(button.url) ?? title;
    return [{ title, payload }];
  });
  return buttons.length > 0 ? buttons : undefined;
}

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Rasa drops falsy values of a message: `None`, `""`, `[]`, `{}`, `False` and `0`. */
function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null || value === false || value === 0 || value === '') {
    return true;
  }
  if (Array.isArray(value)) return value.length === 0;
  return isPlainObject(value) && Object.keys(value).length === 0;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
