import * as z from 'zod';
import { NonEmptyString, SecretRef, strictObject } from './common.js';

/**
 * `credentials.yml`: the messaging channels, in Rasa's format. Secret values are `${VAR}`
 * references (the environment or `.env` locally, Secrets Manager when deployed). Blocks of
 * channels Switchboard does not serve (`rasa`, `browser_audio`, …) are reported as notes.
 */

/** Rasa's `callback`: messages come in as the REST channel's, each reply is posted to `url`. */
export const CallbackChannelSettings = strictObject({
  url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).refine((url) => {
    const parsed = URL.parse(url);
    return parsed !== null && parsed.username === '' && parsed.password === '';
  }, 'must not hold a user name or password: the callback channel sends no credentials'),
});
export type CallbackChannelSettings = z.infer<typeof CallbackChannelSettings>;

/** The Slack Events API: requests signed with the app's signing secret, replies by the bot token. */
export const SlackChannelSettings = strictObject({
  /** The bot token (`xoxb-…`) that posts replies with `chat.postMessage`. */
  slack_token: SecretRef,
  /** The app's signing secret: every request's `X-Slack-Signature` is checked with it. */
  slack_signing_secret: SecretRef,
  /** Where replies go when the event names no channel. */
  slack_channel: NonEmptyString.optional(),
  /** Answer in the thread of the message (a mention in a channel), as Rasa's `use_threads`. */
  use_threads: z.boolean().optional(),
});
export type SlackChannelSettings = z.infer<typeof SlackChannelSettings>;

/** Telegram's Bot API webhook. */
export const TelegramChannelSettings = strictObject({
  /** The bot's token from BotFather. */
  access_token: SecretRef,
  /** The bot's user name, as Rasa names it. */
  verify: NonEmptyString.optional(),
  /** The public URL Telegram posts to (given to `setWebhook`). */
  webhook_url: z.url().optional(),
  /**
   * The `secret_token` given to `setWebhook`: Telegram sends it in the
   * `X-Telegram-Bot-Api-Secret-Token` header, and requests without it are refused. Not one of
   * Rasa's keys: Rasa does not check Telegram's requests.
   */
  secret_token: SecretRef.optional(),
});
export type TelegramChannelSettings = z.infer<typeof TelegramChannelSettings>;

/** Twilio's Messaging webhook, for SMS and WhatsApp numbers alike. */
export const TwilioChannelSettings = strictObject({
  account_sid: NonEmptyString,
  /** The account's auth token: signs requests (`X-Twilio-Signature`) and sends replies. */
  auth_token: SecretRef,
  /** The number replies come from: `+14155550100`, or `whatsapp:+14155550100`. */
  twilio_number: NonEmptyString,
  /**
   * The public URL Twilio posts to, which its signature covers; by default the URL the request
   * arrived at. Set it when a proxy or tunnel changes the host. Not one of Rasa's keys.
   */
  webhook_url: z.url().optional(),
});
export type TwilioChannelSettings = z.infer<typeof TwilioChannelSettings>;

/** Rasa's `socketio` channel: locally Rasa's socket.io protocol and server-sent events; deployed, the web chat. */
export const SocketIoChannelSettings = strictObject({
  user_message_evt: NonEmptyString.optional(),
  bot_message_evt: NonEmptyString.optional(),
  session_persistence: z.boolean().optional(),
});
export type SocketIoChannelSettings = z.infer<typeof SocketIoChannelSettings>;

export const CredentialsFile = z.object({
  /** Rasa's REST channel: always served; its block takes no settings. */
  rest: z.null().or(z.object({})).optional(),
  callback: CallbackChannelSettings.optional(),
  slack: SlackChannelSettings.optional(),
  telegram: TelegramChannelSettings.optional(),
  twilio: TwilioChannelSettings.optional(),
  socketio: SocketIoChannelSettings.or(z.null()).optional(),
});
export type CredentialsFile = z.infer<typeof CredentialsFile>;

/** The messaging channels a project configures, as the runtime takes them. */
export interface ChannelSettings {
  readonly callback?: CallbackChannelSettings;
  readonly slack?: SlackChannelSettings;
  readonly telegram?: TelegramChannelSettings;
  readonly twilio?: TwilioChannelSettings;
  readonly socketio?: SocketIoChannelSettings;
}
