import { a2aServer, card } from '@switchboard/a2a-server';
import { DynamoTaskStore } from '../../src/adapters/aws/dynamoTaskStore.js';
import { a2aServerChannel } from '../../src/channels/a2aServer.js';
import type { ChannelFactory } from '../../src/runtime/index.js';
import { env, projectSecrets, pushKeyOf, table } from './aws.js';
import { logger } from './observability.js';

/** How long an A2A stream goes on in a function: within its timeout and the API's idle limit. */
export const A2A_STREAM_LIMIT_MS = 4 * 60_000;

const pushKey = pushKeyOf(env.A2A_PUSH_KEY_SECRET);
const tasks = new DynamoTaskStore(table);

/**
 * The A2A server channel of the bundled assistant (none when it has no `a2a_server`): the A2A
 * function serves its routes, and the worker runs its output (task folding, push notifications).
 */
export const a2aServerChannels: ChannelFactory = (context) => {
  const settings = a2aServer;
  if (!settings) return [];
  return [
    a2aServerChannel(context, {
      settings,
      card,
      tasks,
      secrets: projectSecrets,
      logger,
      streamLimitMs: A2A_STREAM_LIMIT_MS,
      ...(pushKey ? { pushKey } : {}),
    }),
  ];
};
