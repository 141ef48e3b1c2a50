import { createHttpRuntime } from '../src/runtime/index.js';
import { a2aServerChannels } from './shared/a2aServer.js';
import { awsRuntimeParts } from './shared/parts.js';
import { responder } from './shared/respond.js';
import { streamingHttpHandler } from './shared/restStream.js';

// The A2A server's routes only: a message becomes a job, which the worker runs.
const { http } = createHttpRuntime({ ...awsRuntimeParts, channels: a2aServerChannels });

/**
 * The A2A server behind the REST API's streaming routes: the agent card, and JSON-RPC whose
 * streaming methods answer server-sent events as they come.
 */
export const handler = streamingHttpHandler(
  { ok: 'A2ARequestsServed', refused: 'A2ARequestsRefused', failed: 'A2ARequestsFailed' },
  responder(http, {
    notConfigured: 'the A2A server is not configured',
    missing: 'a secret of a2a_server.auth (or the REST token) is missing: create it',
    blank: 'a key of a2a_server.auth (or the REST token) is blank: put a value in it',
  }),
);
