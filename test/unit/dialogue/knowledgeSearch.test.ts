import { describe, expect, it } from 'vitest';
import { newConversation } from '../../helpers/dialogue.js';
import { BASE_PROJECT } from '../../helpers/project.js';

const SEARCH_PATTERN = `flows:
  pattern_search:
    description: Answer questions from the knowledge base.
    steps:
      - action: action_trigger_search
`;

const withStore = (store: string) => ({
  ...BASE_PROJECT,
  'endpoints.yml': `${BASE_PROJECT['endpoints.yml']}vector_store:\n${store}`,
  'data/patterns.yml': SEARCH_PATTERN,
});

const MCP_STORE = withStore(
  '  type: mcp\n  server: tools\n  tool: search_docs\n  query_param: question\n  arguments:\n    top_k: 2\n',
);

const text = (value: string) => ({ isError: false, content: [{ type: 'text', text: value }] });

describe('action_trigger_search', () => {
  it('answers a knowledge question with the text of the vector_store search tool', async () => {
    const c = await newConversation(MCP_STORE);
    c.ports.llm.reply('provide info');
    c.ports.mcp.reply(text('We are open from 9 to 5, Monday to Saturday.'));
    expect(await c.say('When are you open?')).toEqual([
      'We are open from 9 to 5, Monday to Saturday.',
    ]);
    expect(
      c.ports.mcp.calls.map((call) => [call.serverName, call.toolName, call.arguments]),
    ).toEqual([['tools', 'search_docs', { top_k: 2, question: 'When are you open?' }]]);
  });

  it('says no relevant answer was found when the search tool finds nothing', async () => {
    const c = await newConversation(MCP_STORE);
    c.ports.llm.reply('provide info');
    c.ports.mcp.reply({ isError: false, content: [] });
    expect(await c.say('Do you sell boats?')).toEqual([
      "Sorry, I couldn't find an answer to that.",
    ]);
  });

  it('answers with the internal-error pattern when the search tool fails', async () => {
    const c = await newConversation(MCP_STORE);
    c.ports.llm.reply('provide info');
    c.ports.mcp.reply({ isError: true, content: [{ type: 'text', text: 'index offline' }] });
    expect(await c.say('When are you open?')).toEqual([
      'Sorry, something went wrong on my side. Please try again in a moment.',
    ]);
  });

  it('hands the question to the sub agent the vector_store names', async () => {
    const c = await newConversation(withStore('  type: agent\n  agent: helper\n'));
    c.ports.llm.reply('provide info');
    c.ports.agents.reply({
      status: 'completed',
      responseMessage: 'Our warranty lasts three years.',
    });
    expect(await c.say('How long is the warranty?')).toEqual(['Our warranty lasts three years.']);
    expect(c.ports.agents.invocations.map((i) => [i.agent.name, i.input.userMessage])).toEqual([
      ['helper', 'How long is the warranty?'],
    ]);
  });

  it('says there is no knowledge base when no vector_store answers', async () => {
    const c = await newConversation({ ...BASE_PROJECT, 'data/patterns.yml': SEARCH_PATTERN });
    c.ports.llm.reply('provide info');
    expect(await c.say('When are you open?')).toEqual([
      "I'm afraid I can't answer that: I have no knowledge base to look it up in.",
    ]);
  });
});
