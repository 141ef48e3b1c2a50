import type { Channel, ChannelContext } from '../runtime/index.js';
import { healthChannel } from './health.js';
import { restChannel } from './rest.js';
import { trackerChannel } from './tracker.js';
import { versionChannel } from './version.js';

/** The channels every deployment serves: health, version, the REST webhook and the tracker. */
export function standardChannels(context: ChannelContext): readonly Channel[] {
  return [healthChannel(), versionChannel(), restChannel(context), trackerChannel(context)];
}
