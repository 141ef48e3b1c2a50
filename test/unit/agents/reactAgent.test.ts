import { describe, expect, it } from 'vitest';
import {
  A2AAgent,
  isReactAgentClass,
  McpOpenAgent,
  McpTaskAgent,
} from '../../../src/agents/index.js';
import type { ReactSubAgent } from '../../../src/assistant/index.js';

describe('isReactAgentClass', () => {
  it('accepts the two agent classes and the classes that extend them', () => {
    class Concierge extends McpOpenAgent {}
    class Booker extends McpTaskAgent {}
    expect([McpOpenAgent, McpTaskAgent, Concierge, Booker].map(isReactAgentClass)).toEqual([
      true,
      true,
      true,
      true,
    ]);
  });

  it('refuses other classes, functions and values', () => {
    class Plain {}
    const values = [Plain, A2AAgent, () => {}, null, undefined, 'McpOpenAgent', {}];
    expect(values.map(isReactAgentClass)).toEqual(values.map(() => false));
  });
});

describe('McpBaseAgent', () => {
  it('adds no call-time metadata to a custom tool call unless a class says so', async () => {
    const agent = new McpOpenAgent({ name: 'concierge' } as ReactSubAgent);
    const metadata = await agent.buildCustomToolCallMetadata({
      toolName: 'lookup_tenant',
    } as Parameters<McpOpenAgent['buildCustomToolCallMetadata']>[0]);
    expect(metadata).toEqual({});
  });
});
