import { describe, expect, it } from 'vitest';
import { A2AAgent, isA2AAgentClass } from '../../../src/a2a/index.js';
import type { A2ASubAgent, AgentInput, AgentOutput } from '../../../src/assistant/index.js';

const config = {
  name: 'shop',
  description: 'Sells cars.',
  dir: 'sub_agents/shop',
  protocol: 'A2A',
  agentCard: { kind: 'url', url: 'https://shop.example.com' },
  configuration: {
    agent_card: 'https://shop.example.com',
    max_polling_time: 60,
    polling_initial_delay: 0.5,
    task_timeout: 600,
    max_retries: 3,
  },
} satisfies A2ASubAgent;

describe('A2AAgent', () => {
  it('sends the input and hands the answer on as they are, keeping its configuration', async () => {
    const agent = new A2AAgent(config);
    const input: AgentInput = {
      id: 'in-1',
      userMessage: 'The Touring',
      slots: [{ name: 'trim', value: null, type: 'text' }],
      conversationHistory: 'USER: hi',
      events: [],
      metadata: { sender_id: 'alice' },
      timestamp: '2026-12-02T10:00:00.000Z',
    };
    const output: AgentOutput = { id: 'run-1', status: 'completed', responseMessage: 'Ordered.' };
    expect(await agent.processInput(input)).toBe(input);
    expect(await agent.processOutput(output)).toBe(output);
    expect(agent.config).toBe(config);
  });
});

describe('isA2AAgentClass', () => {
  it('accepts A2AAgent and the classes that extend it, directly or not', () => {
    class Shop extends A2AAgent {}
    class Boutique extends Shop {}
    expect(isA2AAgentClass(A2AAgent)).toBe(true);
    expect(isA2AAgentClass(Shop)).toBe(true);
    expect(isA2AAgentClass(Boutique)).toBe(true);
  });

  it('refuses other classes, functions and values', () => {
    class Other {
      processOutput() {}
    }
    expect(isA2AAgentClass(Other)).toBe(false);
    expect(isA2AAgentClass(() => new A2AAgent(config))).toBe(false);
    expect(isA2AAgentClass(new A2AAgent(config))).toBe(false);
    expect(isA2AAgentClass({ prototype: A2AAgent.prototype })).toBe(false);
    expect(isA2AAgentClass(undefined)).toBe(false);
  });
});
