/**
 * The peer of the `a2a` benchmark, run as a child process so that its CPU is not counted: an A2A
 * 1.0 agent on the SDK's express handlers that answers every message at once with a message (the
 * health check included). Prints `{"cardUrl"}` when ready.
 */

import { textPart } from '../src/a2a/index.js';
import { startA2AHost } from '../src/demo/a2aHost.js';
import { agentMessage } from '../src/demo/a2aTask.js';

const host = await startA2AHost({
  name: 'bench agent',
  description: 'Answers every message at once.',
  versions: '1.0',
  streaming: false,
  pushNotifications: false,
  executor: {
    async execute(ctx, bus) {
      bus.publish({ kind: 'message', data: agentMessage([textPart('done')], ctx) });
      bus.finished();
    },
    async cancelTask(_taskId, bus) {
      bus.finished();
    },
  },
});
process.stdout.write(`${JSON.stringify({ cardUrl: host.cardUrl })}\n`);
