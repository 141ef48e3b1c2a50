import { DefaultAgentCardResolver } from '@a2a-js/sdk/client';
import { describe, expect, it } from 'vitest';
import { a2aStackSuite } from '../../helpers/a2aClient.js';

const A2A_SERVER = `  name: Test drives
  description: Books test drives at the dealership.
  include_conversation_repair: false
  auth:
    api_key: \${A2A_KEY}
`;

describe('the agent card of the A2A server on the local stack', () => {
  const suite = a2aStackSuite(A2A_SERVER, { files: { '.env': 'A2A_KEY=key-4711\n' } });

  it('gives A2A 1.0 clients a card whose skills are the flows and whose interfaces are this server', async () => {
    const card = await new DefaultAgentCardResolver({ legacyCompat: { enabled: true } }).resolve(
      suite.stack.url,
    );
    expect(card.name).toBe('Test drives');
    expect(card.description).toBe('Books test drives at the dealership.');
    expect(card.supportedInterfaces).toEqual([
      expect.objectContaining({
        url: `${suite.stack.url}/a2a`,
        protocolBinding: 'JSONRPC',
        protocolVersion: '1.0',
      }),
      expect.objectContaining({
        url: `${suite.stack.url}/a2a`,
        protocolBinding: 'JSONRPC',
        protocolVersion: '0.3',
      }),
    ]);
    expect(card.capabilities).toMatchObject({ streaming: true, pushNotifications: true });
    expect(card.skills.map((s) => [s.id, s.description])).toEqual([['greet', 'Greet the user.']]);
    expect(Object.keys(card.securitySchemes)).toEqual(['apiKey']);
  });

  it('gives callers that name no version the card in A2A 0.3 shape', async () => {
    const response = await fetch(`${suite.stack.url}/.well-known/agent-card.json`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      name: 'Test drives',
      url: `${suite.stack.url}/a2a`,
      preferredTransport: 'JSONRPC',
      protocolVersion: '0.3',
      capabilities: { streaming: true, pushNotifications: true },
      securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
      security: [{ apiKey: [] }],
      skills: [{ id: 'greet', name: 'greet', description: 'Greet the user.', tags: ['flow'] }],
    });
  });
});
