import { beforeAll, describe, expect, it, vi } from 'vitest';
import { A2ARunData } from '../../../src/a2a/index.js';
import { A2AAgent, McpOpenAgent } from '../../../src/agents/index.js';
import {
  AgentModuleError,
  loadAgentClasses,
  OnDemandA2ARunner,
  projectAgents,
} from '../../../src/assembly/index.js';
import type { AgentInput, Assistant, SubAgent } from '../../../src/assistant/index.js';
import type { ImportedModules } from '../../../src/extensions/index.js';
import type { McpGateway } from '../../../src/mcp/index.js';
import type { StepContext } from '../../../src/runtime/index.js';
import { assistantFrom } from '../../helpers/dialogue.js';

const FILES = {
  'endpoints.yml': 'mcp_servers:\n  - name: tools\n    url: http://127.0.0.1:9000/mcp\n',
  'domain.yml': 'slots: {}\nresponses:\n  utter_ok:\n    - text: OK.\n',
  'data/flows.yml': `flows:
  help:
    description: Help.
    steps:
      - call: helper
  shop:
    description: Shop.
    steps:
      - call: shopper
`,
  'sub_agents/helper/config.yml': `agent:
  name: helper
  description: Helps.
configuration:
  module: custom.agents.HelperAgent
  timeout: 1
connections:
  mcp_servers:
    - name: tools
`,
  'sub_agents/shopper/config.yml': `agent:
  name: shopper
  protocol: A2A
  description: Shops.
configuration:
  agent_card: https://shop.example/.well-known/agent-card.json
  module: custom.agents.ShopperAgent
`,
  'custom/agents.ts': 'export class HelperAgent {}\nexport class ShopperAgent {}\n',
};

const STARTED_AT = Date.parse('2026-03-01T10:00:00.000Z');

let assistant: Assistant;
beforeAll(async () => {
  assistant = await assistantFrom(FILES);
});

class HelperAgent extends McpOpenAgent {}
class ShopperAgent extends A2AAgent {}

/** The project's custom/agents.ts as the bundle holds it, with the classes given. */
function agentsModule(classes: Record<string, unknown>): ImportedModules {
  const location = assistant.extensions['custom.agents.HelperAgent'];
  if (!location) throw new Error('the project names no custom.agents.HelperAgent');
  return { [location.file]: classes };
}

function agent(name: string): SubAgent {
  const found = assistant.agents[name];
  if (!found) throw new Error(`the project has no ${name}`);
  return found;
}

function input(): AgentInput {
  return {
    id: 'input-1',
    userMessage: 'help me',
    slots: [],
    conversationHistory: 'USER: help me',
    events: [],
    metadata: {},
    timestamp: new Date(STARTED_AT).toISOString(),
  };
}

function context(): StepContext {
  return { conversationId: 'c1', runId: 'run-1', signal: new AbortController().signal };
}

/** Ports no step in these tests may reach. */
const unreachable = {
  models: () => {
    throw new Error('unexpected model');
  },
  gateway: {} as McpGateway,
  secrets: {
    get: async (name: string) => {
      throw new Error(`unexpected secret ${name}`);
    },
  },
};

describe('loadAgentClasses', () => {
  it("takes the classes the agents' modules name, by agent name", async () => {
    const classes = await loadAgentClasses(assistant, agentsModule({ HelperAgent, ShopperAgent }));

    expect(classes).toEqual({ react: { helper: HelperAgent }, a2a: { shopper: ShopperAgent } });
  });

  it("refuses a ReAct agent's module that is not a class extending McpOpenAgent or McpTaskAgent", async () => {
    const loading = loadAgentClasses(
      assistant,
      agentsModule({ HelperAgent: () => 'not a class', ShopperAgent }),
    );

    await expect(loading).rejects.toBeInstanceOf(AgentModuleError);
    await expect(loading).rejects.toMatchObject({
      name: 'AgentModuleError',
      code: 'AGENT_MODULE_INVALID',
      message:
        'custom.agents.HelperAgent (configuration.module of helper) must be a class that extends McpOpenAgent or McpTaskAgent',
    });
  });

  it("refuses an A2A agent's module that is not a class extending A2AAgent", async () => {
    const loading = loadAgentClasses(
      assistant,
      agentsModule({ HelperAgent, ShopperAgent: HelperAgent }),
    );

    await expect(loading).rejects.toMatchObject({
      name: 'AgentModuleError',
      code: 'AGENT_MODULE_INVALID',
      message:
        'custom.agents.ShopperAgent (configuration.module of shopper) must be a class that extends A2AAgent',
    });
  });
});

describe('projectAgents', () => {
  it('times ReAct runs by the clock it is given', async () => {
    vi.useFakeTimers({ now: STARTED_AT });
    const runners = await projectAgents({
      assistant,
      ...unreachable,
      modules: agentsModule({ HelperAgent, ShopperAgent }),
      now: () => STARTED_AT + 1_000,
    });
    const react = runners.runnerFor(agent('helper'));
    if (!react) throw new Error('no runner for ReAct agents');

    const data = react.start({
      agent: agent('helper'),
      frameId: 'frame-1',
      input: input(),
      resumed: false,
      restarted: false,
    });
    const result = await react.step(data, context());

    expect(result.next).toEqual({
      type: 'done',
      output: {
        id: 'input-1',
        status: 'fatal_error',
        errorMessage: 'helper did not finish within its timeout of 1 s',
      },
    });
  });

  it('reaches A2A agents through the fetch it is given', async () => {
    vi.useFakeTimers();
    const requested: string[] = [];
    const fakeFetch = async (url: string | URL | Request) => {
      requested.push(String(url instanceof Request ? url.url : url));
      return new Response('no such agent', { status: 404 });
    };
    const runners = await projectAgents({
      assistant,
      ...unreachable,
      modules: agentsModule({ HelperAgent, ShopperAgent }),
      fetch: fakeFetch as typeof fetch,
    });
    const a2a = runners.runnerFor(agent('shopper'));
    if (!a2a) throw new Error('no runner for A2A agents');

    const data = a2a.start({
      agent: agent('shopper'),
      frameId: 'frame-1',
      input: input(),
      resumed: false,
      restarted: false,
    });
    const result = await a2a.step(data, context());

    expect(requested[0]).toBe('https://shop.example/.well-known/agent-card.json');
    expect(requested).toEqual(['https://shop.example/.well-known/agent-card.json']);
    expect(result.next).toMatchObject({
      type: 'done',
      output: {
        status: 'fatal_error',
        errorMessage: 'the health check failed: A2A agent shopper: the agent answered HTTP 404',
      },
    });
  });
});

describe('OnDemandA2ARunner', () => {
  const invocation = () => ({
    agent: agent('shopper'),
    frameId: 'frame-1',
    input: { ...input(), metadata: { question_id: 'status-1' } },
    resumed: false,
    restarted: false,
  });

  /** A runner whose steps answer `retry`, and how many times it was built. */
  function loaded() {
    const built = { count: 0, cancelled: 0 };
    const load = async () => {
      built.count++;
      return {
        dataSchema: A2ARunData,
        start: () => {
          throw new Error('the loaded runner is not asked to start a run');
        },
        step: async (data: A2ARunData) => ({
          data,
          next: { type: 'retry' as const, reason: 'later' },
        }),
        cancel: async () => {
          built.cancelled++;
        },
      };
    };
    return { built, load };
  }

  it('starts a run without loading the A2A client, as the loaded runner would', () => {
    const { built, load } = loaded();
    const runner = new OnDemandA2ARunner(load);

    const data = runner.start(invocation());

    expect(built.count).toBe(0);
    expect(data).toEqual({
      agentId: 'shopper',
      input: invocation().input,
      messageId: 'msg-input-1',
      asked: 'status-1',
      polls: 0,
      push: false,
      shown: ['status-1'],
    });
  });

  it('loads the A2A client once, at the first step, for every step and cancellation after it', async () => {
    const { built, load } = loaded();
    const runner = new OnDemandA2ARunner(load);
    const data = runner.start(invocation());

    const results = await Promise.all([runner.step(data, context()), runner.step(data, context())]);
    await runner.cancel(
      { agent: agent('shopper'), conversationId: 'c1', data: { ...data, taskId: 'task-1' } },
      context(),
    );

    expect(built).toEqual({ count: 1, cancelled: 1 });
    expect(results.map((r) => r.next.type)).toEqual(['retry', 'retry']);
  });

  it('cancels a run with no remote task without loading the A2A client', async () => {
    const { built, load } = loaded();
    const runner = new OnDemandA2ARunner(load);
    const data = runner.start(invocation());

    await runner.cancel({ agent: agent('shopper'), conversationId: 'c1', data }, context());
    await runner.cancel(
      { agent: agent('shopper'), conversationId: 'c1', session: { task_id: 'task-9' } },
      context(),
    );

    expect(built).toEqual({ count: 1, cancelled: 1 });
  });

  it('tries to load again at the next step when loading failed', async () => {
    const { built, load } = loaded();
    let failures = 1;
    const runner = new OnDemandA2ARunner(async () => {
      if (failures-- > 0) throw new Error('the chunk could not be read');
      return load();
    });
    const data = runner.start(invocation());

    const first = await runner.step(data, context()).catch((e: unknown) => e);
    const second = await runner.step(data, context());

    expect(first).toEqual(new Error('the chunk could not be read'));
    expect(second.next.type).toBe('retry');
    expect(built.count).toBe(1);
  });
});
