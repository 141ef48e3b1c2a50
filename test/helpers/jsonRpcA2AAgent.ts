import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A bare A2A 0.3 agent on loopback: serves its card, and hands each POST to `answer`. */
export interface JsonRpcA2AAgent {
  readonly base: string;
  close(): Promise<void>;
}

export async function startJsonRpcA2AAgent(
  name: string,
  answer: (request: IncomingMessage, body: string, response: ServerResponse) => void,
): Promise<JsonRpcA2AAgent> {
  let base = '';
  const card = () => ({
    protocolVersion: '0.3.0',
    name,
    description: `The ${name} test agent.`,
    url: `${base}/a2a`,
    preferredTransport: 'JSONRPC',
    version: '1.0.0',
    capabilities: { streaming: false, pushNotifications: false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [],
  });
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += String(chunk);
    });
    request.on('end', () => {
      if (request.method === 'GET') {
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(card()));
        return;
      }
      answer(request, body, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
