export { A2A_PUSH_CHANNEL, type A2APushOptions, a2aPushChannel } from './a2aPush.js';
export {
  A2A_SERVER_CHANNEL,
  type A2AServerChannelOptions,
  a2aServerChannel,
} from './a2aServer.js';

import { healthChannel } from './health.js';
import { versionChannel } from './version.js';

export type { RestReply, RestWebhookBody } from './rest.js';
export {
  parseRestWebhook,
  REST_CHANNEL,
  REST_LIMITS,
  restChannel,
  restMessageJob,
  toRestReply,
} from './rest.js';
export { standardChannels } from './standard.js';
export type { TrackerView } from './tracker.js';
export { readTracker, trackerChannel } from './tracker.js';
export {
  MINIMUM_COMPATIBLE_VERSION,
  SWITCHBOARD_VERSION,
  type VersionView,
} from './version.js';
export { healthChannel, versionChannel };
