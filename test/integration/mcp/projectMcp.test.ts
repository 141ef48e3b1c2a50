import { afterEach, describe, expect, it } from 'vitest';
import { projectMcp } from '../../../src/mcp/index.js';
import { assistantFrom } from '../../helpers/dialogue.js';
import { SILENT_LOGGER } from '../../helpers/logger.js';
import { startTestMcpServer } from '../../helpers/mcpTestServer.js';
import { secretsOf } from './fixtures.js';

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((o) => o.close()));
});

describe('projectMcp', () => {
  it('calls the project’s servers with its hooks and credentials, logging to its logger', async () => {
    const server = await startTestMcpServer({
      authorize: (r) => r.headers.authorization === 'Bearer calc-key',
    });
    open.push(server);
    const assistant = await assistantFrom({
      '.env': 'CALC_KEY=calc-key\n',
      'endpoints.yml': `mcp_servers:
  - name: calculator
    url: ${server.url}
    api_key: \${CALC_KEY}
    pre_call_hook: custom.hooks.tenant
`,
      'domain.yml': 'responses:\n  utter_ok:\n    - text: ok\n',
      'custom/hooks.ts': `export function tenant(context: { flowId?: string }) {
  return { metadata: { tenant: 'acme', flow: context.flowId } };
}
`,
    });
    const debug: string[] = [];
    const { gateway, flowTools } = await projectMcp({
      assistant,
      secrets: secretsOf({ CALC_KEY: 'calc-key' }),
      logger: { ...SILENT_LOGGER, debug: (message) => debug.push(message) },
    });
    open.push(gateway);

    const result = await flowTools.callTool({
      serverName: 'calculator',
      toolName: 'add',
      arguments: { a: 2, b: 40 },
      senderId: 'ada',
      flowId: 'add_numbers',
      stepId: 'sum',
      slots: {},
      callKey: 'turn-1|add_numbers|sum|0',
    });

    expect(result.structuredContent).toEqual({ sum: 42 });
    expect(server.calls[0]?.meta).toMatchObject({ tenant: 'acme', flow: 'add_numbers' });
    expect(debug).toContain('calling MCP tool');
  });
});
