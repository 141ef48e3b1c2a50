import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2ARunner } from '../../../src/a2a/index.js';
import type { SubAgent } from '../../../src/assistant/index.js';
import { assistantFrom } from '../../helpers/dialogue.js';
import { type JsonRpcA2AAgent, startJsonRpcA2AAgent } from '../../helpers/jsonRpcA2AAgent.js';
import { secretsOf } from '../mcp/fixtures.js';

/**
 * An A2A agent that passes its health check, then answers every message with 503 and a
 * `Retry-After` of 30 seconds.
 */
let agent: JsonRpcA2AAgent;
let base = '';
let posts = 0;
beforeAll(async () => {
  agent = await startJsonRpcA2AAgent('busy', (_request, body, response) => {
    posts += 1;
    if (posts === 1) {
      const { id } = JSON.parse(body) as { id: number };
      const result = { kind: 'message', messageId: 'h', role: 'agent', parts: [] };
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', id, result }));
      return;
    }
    response.writeHead(503, { 'retry-after': '30' }).end('busy');
  });
  base = agent.base;
});
afterAll(async () => {
  await agent?.close();
});

describe('an A2A agent that asks to be called again later', () => {
  it('is retried by a delayed job no sooner than its Retry-After, not within the request', async () => {
    const assistant = await assistantFrom({
      'config.yml': 'recipe: default.v1\n',
      'endpoints.yml': '',
      'domain.yml': 'version: "3.1"\n',
      'data/flows/wait.yml':
        'flows:\n  wait:\n    description: Wait.\n    steps:\n      - call: busy\n',
      'sub_agents/busy/config.yml': `agent:
  name: busy
  protocol: A2A
  description: Asks to be called later.
configuration:
  agent_card: ${base}/.well-known/agent-card.json
  max_retries: 3
`,
    });
    const busy = assistant.agents.busy as SubAgent;
    const clock = Date.now();
    const runner = new A2ARunner({ assistant, secrets: secretsOf({}), now: () => clock });
    const data = runner.start({
      agent: busy,
      frameId: 'f-1',
      input: {
        id: 'in-1',
        userMessage: 'hello',
        slots: [],
        conversationHistory: 'USER: hello',
        events: [],
        metadata: {},
      },
      resumed: false,
      restarted: false,
    });

    const step = await runner.step(data, {
      conversationId: 'c-1',
      runId: 'r-1',
      signal: new AbortController().signal,
    });

    // The health check, then one message: a 30 s wait is not waited out within the request.
    expect(posts).toBe(2);
    expect(step.next).toMatchObject({
      type: 'retry',
      reason: 'A2A agent busy: the agent answered HTTP 503',
      retryAfterMs: 30_000,
    });
  });
});
