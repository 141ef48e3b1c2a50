import type { ChannelSettings } from '../../assistant/index.js';
import type { Channel, ChannelContext } from '../../runtime/index.js';
import { WEB_CHAT_POST_PATH } from '../webChat.js';
import { CALLBACK_PATH, callbackChannel } from './callback.js';
import type { MessagingDeps } from './deps.js';
import { SLACK_PATH, slackChannel } from './slack.js';
import { TELEGRAM_PATH, telegramChannel } from './telegram.js';
import { TWILIO_PATH, twilioChannel } from './twilio.js';

export { CALLBACK_CHANNEL, CALLBACK_PATH, callbackChannel } from './callback.js';
export { API_ROOTS, type MessagingDeps, type PlatformName, platformApiRoots } from './deps.js';
export {
  conversationOf,
  type InboundMessage,
  inboundJob,
  platformIdOf,
} from './inbound.js';
export {
  callPlatform,
  messagingOutput,
  PLATFORM_TIMEOUT_MS,
  type PlatformCall,
  PlatformError,
  SEND_ATTEMPTS,
  type SendMessage,
} from './outbound.js';
export { SLACK_CHANNEL, SLACK_PATH, slackChannel } from './slack.js';
export { TELEGRAM_CHANNEL, TELEGRAM_PATH, telegramChannel } from './telegram.js';
export { TWILIO_CHANNEL, TWILIO_PATH, twilioChannel } from './twilio.js';

/** The messaging channels credentials.yml configures (none without one). */
export function messagingChannels(
  context: ChannelContext,
  settings: ChannelSettings | undefined,
  deps: MessagingDeps,
): Channel[] {
  const channels: Channel[] = [];
  if (settings?.callback) channels.push(callbackChannel(context, settings.callback, deps));
  if (settings?.slack) channels.push(slackChannel(context, settings.slack, deps));
  if (settings?.telegram) channels.push(telegramChannel(context, settings.telegram, deps));
  if (settings?.twilio) channels.push(twilioChannel(context, settings.twilio, deps));
  return channels;
}

/**
 * The webhook path of each channel a deployment serves over its HTTP API (all `POST`): the
 * messaging channels, and the web chat's messages (`socketio`, whose stream a function of its own
 * serves).
 */
export const MESSAGING_PATHS = {
  callback: CALLBACK_PATH,
  slack: SLACK_PATH,
  telegram: TELEGRAM_PATH,
  twilio: TWILIO_PATH,
  socketio: WEB_CHAT_POST_PATH,
} as const;

/** The webhook paths of the channels `settings` configures, for the deployed API's routes. */
export function messagingPaths(settings: ChannelSettings | undefined): string[] {
  return (Object.keys(MESSAGING_PATHS) as (keyof typeof MESSAGING_PATHS)[])
    .filter((name) => settings?.[name] !== undefined)
    .map((name) => MESSAGING_PATHS[name]);
}
