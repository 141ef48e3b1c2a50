/**
 * How a bot message becomes calls of Telegram's Bot API: a photo with its caption, a text with
 * its buttons as an inline keyboard, and Rasa's custom message as a `sendMessage` body.
 */
import type { BotMessage } from '../../dialogue/index.js';
import { PlatformError, splitText } from './outbound.js';

/** Telegram's limit on what a pressed button sends back (`callback_data`), in UTF-8 bytes. */
const CALLBACK_DATA_BYTES = 64;
/** Telegram's limit on a photo's caption, in characters. */
const CAPTION_CHARS = 1024;
/** Telegram's limit on a message's text, in characters. */
const MESSAGE_CHARS = 4096;

/** One Bot API method call a bot message becomes. */
export interface BotApiCall {
  readonly method: 'sendMessage' | 'sendPhoto' | 'answerCallbackQuery';
  readonly payload: Readonly<Record<string, unknown>>;
}

/**
 * The Bot API calls of a bot message, in order: its image (`sendPhoto`, with the text as its
 * caption when the text fits one), its text (`sendMessage`), then its custom object as a
 * `sendMessage` body. Buttons go under the text, or under the image when it carries the text or
 * there is none. Throws a `PlatformError` (not transient) for a message Telegram cannot show.
 * A message of two calls whose second fails is sent again whole: its first part may show twice.
 */
export function botApiCalls(chatId: number | string, message: BotMessage): BotApiCall[] {
  // An empty text is no text: Telegram refuses to send one.
  const text = message.text || undefined;
  const buttons = message.buttons ?? [];
  if (buttons.length > 0 && text === undefined && message.image === undefined) {
    throw new PlatformError('telegram shows buttons only under a text or an image', {
      transient: false,
    });
  }
  const keyboard = buttons.length > 0 ? { reply_markup: inlineKeyboard(buttons) } : {};
  return [
    ...imageAndText(chatId, text, message.image, keyboard),
    ...customCalls(chatId, message.custom),
  ];
}

function imageAndText(
  chatId: number | string,
  text: string | undefined,
  image: string | undefined,
  keyboard: { reply_markup?: unknown },
): BotApiCall[] {
  // A text over Telegram's limit goes in parts; the buttons go under the last.
  const sendText = (markup: object): BotApiCall[] => {
    const parts = splitText(text ?? '', MESSAGE_CHARS);
    return parts.map((part, i) => ({
      method: 'sendMessage',
      payload: { chat_id: chatId, text: part, ...(i === parts.length - 1 ? markup : {}) },
    }));
  };
  if (image === undefined) return text === undefined ? [] : sendText(keyboard);
  const photo = { chat_id: chatId, photo: image };
  if (text === undefined) return [{ method: 'sendPhoto', payload: { ...photo, ...keyboard } }];
  if (text.length <= CAPTION_CHARS) {
    return [{ method: 'sendPhoto', payload: { ...photo, caption: text, ...keyboard } }];
  }
  return [{ method: 'sendPhoto', payload: photo }, ...sendText(keyboard)];
}

/**
 * A custom object is a `sendMessage` body; the conversation's chat wins over a `chat_id` in it.
 * A null custom is none, as the action server sends it.
 */
function customCalls(chatId: number | string, custom: unknown): BotApiCall[] {
  if (custom === undefined || custom === null) return [];
  if (typeof custom !== 'object' || Array.isArray(custom)) {
    throw new PlatformError('telegram takes a custom message as sendMessage fields only', {
      transient: false,
    });
  }
  return [{ method: 'sendMessage', payload: { ...custom, chat_id: chatId } }];
}

/** Buttons as an inline keyboard, one button per row. */
function inlineKeyboard(buttons: readonly { title: string; payload: string }[]) {
  return {
    inline_keyboard: buttons.map((button) => [
      { text: button.title, callback_data: callbackData(button) },
    ]),
  };
}

/**
 * What a pressed button sends back, which becomes the user's text: its payload when that fits
 * Telegram's 64 bytes, otherwise its title (cut to 64 bytes if it is longer still), so that the
 * assistant reads the title as what the user said.
 */
function callbackData(button: { title: string; payload: string }): string {
  const { payload } = button;
  if (payload !== '' && Buffer.byteLength(payload) <= CALLBACK_DATA_BYTES) return payload;
  let data = '';
  for (const char of button.title) {
    if (Buffer.byteLength(data + char) > CALLBACK_DATA_BYTES) break;
    data += char;
  }
  return data;
}
