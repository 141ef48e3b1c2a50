import type { ChannelSettings } from '../../src/assistant/index.js';
import { messagingChannels, platformApiRoots } from '../../src/channels/messaging/index.js';
import { standardChannels } from '../../src/channels/standard.js';
import { webChatChannel } from '../../src/channels/webChat.js';
import type { ChannelFactory } from '../../src/runtime/index.js';
import { env, projectSecrets } from './aws.js';
import { FunctionConfigError } from './env.js';
import { logger } from './observability.js';

/** The messaging channels the deployment serves, from its `CHANNELS` setting. */
function channelSettings(text: string | undefined): ChannelSettings | undefined {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as ChannelSettings;
  } catch (error) {
    throw new FunctionConfigError('invalid function environment: CHANNELS is not JSON', {
      cause: error,
    });
  }
}

const settings = channelSettings(env.CHANNELS);
const deps = { secrets: projectSecrets, logger, apiRoots: platformApiRoots(process.env) };

/**
 * The channels of the webhook and the worker: the standard ones and the messaging channels of
 * the project's credentials.yml, their secrets read under the deployment's prefix. The webhook
 * serves their routes; the worker sends their replies.
 */
export const deploymentChannels: ChannelFactory = (context) => [
  ...standardChannels(context),
  ...messagingChannels(context, settings, deps),
  // The web chat's messages come in here; its stream is the web chat function's.
  ...(settings?.socketio ? [webChatChannel(context)] : []),
];
