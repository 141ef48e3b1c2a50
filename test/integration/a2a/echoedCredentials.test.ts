import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2AConnection } from '../../../src/a2a/index.js';
import { assistantFrom } from '../../helpers/dialogue.js';
import { secretsOf } from '../mcp/fixtures.js';

const KEY = 'shop-key-echoed-by-the-agent-0123456789';

/** An A2A agent that refuses every request, quoting the credentials it was sent. */
let agent: Server;
let base = '';
beforeAll(async () => {
  agent = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += String(chunk);
    });
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' });
      if (request.method === 'GET') {
        response.end(JSON.stringify(card()));
        return;
      }
      const { id } = JSON.parse(body) as { id: number };
      // Long enough that the echoed key straddles the point where reasons are cut.
      const message = `${'x'.repeat(250)} ${request.headers.authorization} is not a valid key`;
      response.end(JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32603, message } }));
    });
  });
  await new Promise<void>((resolve) => agent.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(agent.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => agent?.close(resolve));
});

const card = () => ({
  protocolVersion: '0.3.0',
  name: 'echoer',
  description: 'Quotes what it is sent.',
  url: `${base}/a2a`,
  preferredTransport: 'JSONRPC',
  version: '1.0.0',
  capabilities: { streaming: false, pushNotifications: false },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [],
});

describe('an A2A agent that echoes the credentials it was sent', () => {
  it('is reported without the key, even where the reason is cut short', async () => {
    const assistant = await assistantFrom({
      'config.yml': 'recipe: default.v1\n',
      'endpoints.yml': '',
      'domain.yml': 'version: "3.1"\n',
      '.env': `SHOP_KEY=${KEY}\n`,
      'data/flows/shop.yml':
        'flows:\n  shop:\n    description: Shop.\n    steps:\n      - call: echoer\n',
      'sub_agents/echoer/config.yml': `agent:
  name: echoer
  protocol: A2A
  description: Quotes what it is sent.
configuration:
  agent_card: ${base}/.well-known/agent-card.json
  max_retries: 0
  auth:
    api_key: \${SHOP_KEY}
`,
    });
    const echoer = assistant.agents.echoer;
    if (echoer?.protocol !== 'A2A') throw new Error('echoer is not an A2A agent');
    const secrets = secretsOf({ SHOP_KEY: KEY });
    const connection = new A2AConnection({ agent: echoer, secrets });

    const failure = await connection
      .ensureHealthy({ signal: new AbortController().signal })
      .catch((e: unknown) => e);

    expect(String(failure)).toContain('[redacted]');
    expect(String(failure)).not.toContain(KEY.slice(0, 8));
  });
});
