import { describe, expect, it } from 'vitest';
import { serveHttp } from '../../../../src/adapters/local/httpServer.js';
import { createHttpApi } from '../../../../src/runtime/index.js';
import { SILENT_LOGGER } from '../../../helpers/logger.js';
import { waitFor } from '../../../helpers/waitFor.js';

describe('the local HTTP server with a streamed answer', () => {
  it('sends each chunk as it comes, and ends the stream when the client leaves', async () => {
    let ended = false;
    const api = createHttpApi([
      {
        name: 'events',
        streams: true,
        routes: [
          {
            method: 'GET',
            path: '/events',
            authenticated: false,
            handle: async () => ({
              status: 200,
              body: undefined,
              headers: { 'content-type': 'text/event-stream' },
              stream: (async function* () {
                try {
                  // Endless: only the client's leaving ends it.
                  for (let n = 1; ; n++) {
                    yield `data: ${n}\n\n`;
                    await new Promise((resolve) => setTimeout(resolve, 10));
                  }
                } finally {
                  ended = true;
                }
              })(),
            }),
          },
        ],
      },
    ]);
    const server = await serveHttp(api, 0, SILENT_LOGGER);
    try {
      const abort = new AbortController();
      const response = await fetch(`${server.url}/events`, { signal: abort.signal });
      expect(response.headers.get('content-type')).toBe('text/event-stream');
      const reader = response.body?.getReader();
      const first = await reader?.read();
      expect(new TextDecoder().decode(first?.value)).toMatch(/^data: 1\n\n/);
      abort.abort();
      await waitFor(async () => ended || undefined, { description: 'the stream to end' });
    } finally {
      await server.close();
    }
  });
});
