import type { Channel, Route } from '../runtime/index.js';

const ok: Route['handle'] = async () => ({ status: 200, body: { status: 'ok' } });

/** `GET /health` (and `GET /`): the deployment answers; no token needed. */
export function healthChannel(): Channel {
  return {
    name: 'health',
    streams: false,
    routes: [
      { method: 'GET', path: '/health', authenticated: false, handle: ok },
      { method: 'GET', path: '/', authenticated: false, handle: ok },
    ],
  };
}
