import type { ChannelSettings } from '../../assistant/index.js';
import type { Channel, ChannelContext } from '../../runtime/index.js';
import { callbackChannel } from './callback.js';
import type { MessagingDeps } from './deps.js';

export { CALLBACK_CHANNEL, CALLBACK_PATH, callbackChannel } from './callback.js';
export { API_ROOTS, type MessagingDeps, type PlatformName } from './deps.js';
export { conversationOf, type InboundMessage, inboundJob, platformIdOf } from './inbound.js';
export {
  callPlatform,
  messagingOutput,
  PLATFORM_TIMEOUT_MS,
  type PlatformCall,
  PlatformError,
  SEND_ATTEMPTS,
  type SendMessage,
} from './outbound.js';

/** The messaging channels credentials.yml configures (none without one). */
export function messagingChannels(
  context: ChannelContext,
  settings: ChannelSettings | undefined,
  deps: MessagingDeps,
): Channel[] {
  const channels: Channel[] = [];
  if (settings?.callback) channels.push(callbackChannel(context, settings.callback, deps));
  return channels;
}
