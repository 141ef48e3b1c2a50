import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../../src/config/index.js';
import {
  loadCommandsFile,
  ScriptedAgentModel,
  scriptedModel,
} from '../../../src/e2eTests/index.js';
import type { ToolChatMessage, ToolChatResponse } from '../../../src/llm/index.js';
import { writeProject } from '../../helpers/project.js';

const FILE = `commands:
  Where is my order?: start flow check_order
  A-1001: set slot order_id A-1001
agents:
  order_agent:
    A-1001:
      - text: Let me look.
        tool: get_order_status
        arguments: { order_id: A-1001 }
      - text: "Order {{ result.order_id }} arrives on {{ result.arrivesOn }}."
        tool: task_completed
    "track order::A-1001":
      - text: Scoped to one test case.
`;

async function loaded(text = FILE) {
  const dir = await writeProject({ 'tests/e2e_commands.yml': text });
  return { ...(await loadCommandsFile(path.join(dir, 'tests/e2e_commands.yml'))), dir };
}

/** The request's messages after the model gave `answers`, each tool call answered with `result`. */
function answered(answers: readonly ToolChatResponse[], result: string): ToolChatMessage[] {
  return answers.flatMap((answer): ToolChatMessage[] => [
    { role: 'assistant', content: answer.content, toolCalls: [...answer.toolCalls] },
    ...answer.toolCalls.map((call) => ({
      role: 'tool' as const,
      toolCallId: call.id,
      content: result,
    })),
  ]);
}

const HISTORY: ToolChatMessage[] = [
  { role: 'system', content: 'You answer questions about orders.' },
  { role: 'user', content: 'Where is my order?' },
  { role: 'assistant', content: 'What is your order number?' },
  { role: 'user', content: 'A-1001' },
];

describe('scripted sub agents', () => {
  it('play their replies for the message they answer in order, counted from the request', async () => {
    const { commands } = await loaded();
    if (!commands) throw new Error('not loaded');
    const model = new ScriptedAgentModel(commands, { name: undefined, message: undefined });
    const first = await model.chat({ messages: HISTORY, agent: 'order_agent' });
    expect(first.content).toBe('Let me look.');
    expect(first.toolCalls).toEqual([
      {
        id: expect.stringMatching(/^scripted_/),
        name: 'get_order_status',
        arguments: '{"order_id":"A-1001"}',
      },
    ]);
    // A second model, as in another process: the request alone says where the run is.
    const again = new ScriptedAgentModel(commands, { name: undefined, message: undefined });
    const result = JSON.stringify({ order_id: 'A-1001', arrivesOn: '8 December' });
    const second = await again.chat({
      messages: [...HISTORY, ...answered([first], result)],
      agent: 'order_agent',
    });
    expect(second.content).toBe('Order A-1001 arrives on 8 December.');
    expect(second.toolCalls.map((c) => c.name)).toEqual(['task_completed']);
    expect(second.toolCalls[0]?.id).not.toBe(first.toolCalls[0]?.id);

    const third = await again.chat({
      messages: [...HISTORY, ...answered([first, second], '{}')],
      agent: 'order_agent',
    });
    expect(third).toEqual({
      content: expect.stringMatching(
        /the 2 replies of order_agent for "A-1001" in .*e2e_commands\.yml were all given\)$/,
      ),
      toolCalls: [],
    });
  });

  it('give the closing line of the reply that completed the task when asked without tools', async () => {
    const { commands } = await loaded();
    if (!commands) throw new Error('not loaded');
    const model = new ScriptedAgentModel(commands, { name: undefined, message: undefined });
    const first = await model.chat({ messages: HISTORY, agent: 'order_agent' });
    const result = JSON.stringify({ order_id: 'A-1001', arrivesOn: '8 December' });
    const second = await model.chat({
      messages: [...HISTORY, ...answered([first], result)],
      agent: 'order_agent',
    });
    const closing = await model.chat({
      messages: [...HISTORY, ...answered([first], result), ...answered([second], '{}')],
      agent: 'order_agent',
      toolChoice: 'none',
    });
    expect(closing).toEqual({ content: 'Order A-1001 arrives on 8 December.', toolCalls: [] });
  });

  it('scope a reply to one test case, and say so when an agent or message has none', async () => {
    const { commands } = await loaded();
    if (!commands) throw new Error('not loaded');
    const scoped = new ScriptedAgentModel(commands, { name: 'track order', message: 'A-1001' });
    expect((await scoped.chat({ messages: HISTORY, agent: 'order_agent' })).content).toBe(
      'Scoped to one test case.',
    );
    const model = new ScriptedAgentModel(commands, { name: undefined, message: undefined });
    const other = [...HISTORY.slice(0, -1), { role: 'user' as const, content: 'B-2002' }];
    expect(await model.chat({ messages: other, agent: 'order_agent' })).toEqual({
      content: expect.stringContaining('has no reply of order_agent for "B-2002"'),
      toolCalls: [],
    });
    expect((await model.chat({ messages: HISTORY, agent: 'returns_agent' })).content).toContain(
      'scripts no replies of returns_agent',
    );
  });

  it('report a reply without text or tool, and a text that is no template, where written', async () => {
    const { errors, dir } = await loaded(`commands: {}
agents:
  order_agent:
    hi:
      - arguments: {}
    there:
      - text: Looking.
        arguments: { order_id: A-1 }
`);
    expect(errors.map((d) => formatDiagnostic(d, dir))).toEqual([
      expect.stringMatching(/^tests\/e2e_commands\.yml:5:9: .*needs "text", "tool" or both/),
      expect.stringMatching(/^tests\/e2e_commands\.yml:7:9: .*has "arguments" but no "tool"/),
    ]);
    const broken = await loaded(`commands: {}
agents:
  order_agent:
    hi:
      - text: "Order {{ result.order_id"
`);
    expect(broken.errors.map((d) => formatDiagnostic(d, broken.dir))).toEqual([
      expect.stringMatching(
        /^tests\/e2e_commands\.yml:5:15: the reply's text is not a valid template: /,
      ),
    ]);
  });

  it('answer for the whole project outside tests: commands by the message, none when unscripted', async () => {
    const { commands } = await loaded();
    if (!commands) throw new Error('not loaded');
    const unscripted: string[] = [];
    const model = scriptedModel(commands, (message) => unscripted.push(message));
    expect(model.scripted).toBe(true);
    const prompt = [{ role: 'user' as const, content: 'the whole prompt' }];
    expect(await model.complete({ messages: prompt, userMessage: 'A-1001' })).toEqual({
      content: 'set slot order_id A-1001',
    });
    expect(await model.complete({ messages: prompt, userMessage: 'hello' })).toEqual({
      content: '',
    });
    expect(unscripted).toEqual(['hello']);
    expect((await model.chat({ messages: HISTORY, agent: 'order_agent' })).content).toBe(
      'Let me look.',
    );
  });

  it('name the agents a file scripts that the project does not have, where they are written', async () => {
    const { commands, dir } = await loaded();
    if (!commands) throw new Error('not loaded');
    expect(commands.unknownAgents(['order_agent'])).toEqual([]);
    expect(commands.unknownAgents(['order_agents']).map((d) => formatDiagnostic(d, dir))).toEqual([
      'tests/e2e_commands.yml:5:3: agents: the project has no sub agent "order_agent" (did you mean "order_agents"?)',
    ]);
  });

  it('say why a reply failed to render, instead of failing the run', async () => {
    const { commands } = await loaded(`commands: {}
agents:
  order_agent:
    A-1001:
      - text: "{{ result | nosuchfilter }}"
`);
    if (!commands) throw new Error('not loaded');
    const model = new ScriptedAgentModel(commands, { name: undefined, message: undefined });
    expect((await model.chat({ messages: HISTORY, agent: 'order_agent' })).content).toMatch(
      /^\(scripted model: the reply "\{\{ result \| nosuchfilter \}\}" failed to render: .*nosuchfilter/,
    );
  });
});
