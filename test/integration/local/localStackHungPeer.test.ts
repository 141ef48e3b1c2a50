import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type McpHost, startMcpHost } from '../../../src/demo/index.js';
import { type LocalStack, startLocalStack } from '../../../src/local/index.js';
import { assistantFrom, ScriptedLlm } from '../../helpers/dialogue.js';
import { waitFor } from '../../helpers/waitFor.js';

/** Conversations whose turn waits on a tool that does not answer: more than the old loops took. */
const HUNG = 8;

function project(mcpUrl: string): Record<string, string> {
  return {
    'endpoints.yml': `mcp_servers:\n  - name: hanging\n    url: ${mcpUrl}\n`,
    'domain.yml': `intents:
  - stuck
  - hello
slots: {}
responses:
  utter_done:
    - text: The tool answered.
  utter_hello:
    - text: Hello there.
`,
    'data/flows.yml': `flows:
  stuck:
    description: Waits for a tool that never answers.
    nlu_trigger:
      - intent: stuck
    steps:
      - call: hang
        mcp_server: hanging
        mapping:
          input: []
          output: []
      - action: utter_done
  hello:
    description: Says hello.
    nlu_trigger:
      - intent: hello
    steps:
      - action: utter_hello
`,
  };
}

/** An MCP server whose `hang` tool answers only when the test releases it. */
async function hangingServer() {
  const calls: string[] = [];
  const waiting: (() => void)[] = [];
  const host = await startMcpHost({
    createServer: () => {
      const server = new McpServer({ name: 'hanging', version: '1.0.0' });
      server.registerTool('hang', { description: 'Never answers.', inputSchema: {} }, async () => {
        calls.push('hang');
        await new Promise<void>((resolve) => waiting.push(resolve));
        return { content: [{ type: 'text', text: 'late' }] };
      });
      return server;
    },
  });
  return {
    host,
    calls,
    release: () => {
      for (const resolve of waiting.splice(0)) resolve();
    },
  };
}

describe('the local stack with a peer that hangs', () => {
  let mcp: Awaited<ReturnType<typeof hangingServer>>;
  let host: McpHost;
  let stack: LocalStack;

  beforeAll(async () => {
    mcp = await hangingServer();
    host = mcp.host;
    stack = await startLocalStack({
      assistant: await assistantFrom(project(`${host.url}`)),
      port: 0,
      env: {},
      llm: new ScriptedLlm(),
      announce: () => {},
    });
  }, 30_000);

  afterAll(async () => {
    mcp?.release();
    await stack?.stop();
    await host?.close();
  });

  const say = async (sender: string, message: string) => {
    const response = await fetch(`${stack.url}/webhooks/rest/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sender, message }),
    });
    return ((await response.json()) as { text: string }[]).map((m) => m.text);
  };

  it('answers another conversation while turns of other conversations wait on the hung peer', async () => {
    const stuck = Array.from({ length: HUNG }, (_, n) => say(`stuck-${n}`, '/stuck'));
    await waitFor(() => mcp.calls.length === HUNG, { description: `${HUNG} calls of hang` });

    expect(await say('bystander', '/hello')).toEqual([
      'Hello there.',
      'Can I help you with anything else?',
    ]);
    // The bystander's turn settled while every call to the hung peer was still unanswered.
    expect(mcp.calls).toHaveLength(HUNG);

    mcp.release();
    for (const replies of await Promise.all(stuck)) expect(replies[0]).toBe('The tool answered.');
  }, 60_000);
});
