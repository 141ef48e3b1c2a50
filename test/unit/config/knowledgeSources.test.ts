import { describe, expect, it } from 'vitest';
import { BASE_PROJECT, errorLines, loadProject } from '../../helpers/project.js';

const ENDPOINTS = BASE_PROJECT['endpoints.yml'] ?? '';
const CONFIG_WITH_POLICY = `${BASE_PROJECT['config.yml']}policies:
  - name: FlowPolicy
  - name: EnterpriseSearchPolicy
`;
const SEARCH_PATTERN = `flows:
  pattern_search:
    description: Answer questions from the knowledge base.
    steps:
      - action: action_trigger_search
`;

const notes = (result: { notes: readonly { line: number; message: string }[] }) =>
  result.notes.map((n) => `${n.line}: ${n.message}`);

describe('validating a project that answers questions from a knowledge base', () => {
  it('says that EnterpriseSearchPolicy and docs/ will not answer, and what to do instead', async () => {
    const { dir, result } = await loadProject({
      'config.yml': CONFIG_WITH_POLICY,
      'docs/faq.txt': 'Opening hours: 9 to 5.\n',
      'data/patterns.yml': SEARCH_PATTERN,
    });
    expect(errorLines(dir, result)).toEqual([]);
    expect(notes(result)).toEqual([
      expect.stringMatching(
        /^7: questions for the knowledge base \(pattern_search\) will not be answered: EnterpriseSearchPolicy does not run here, the documents in docs\/ are not searched, action_trigger_search answers with utter_no_knowledge_base; to answer them, serve a search tool over MCP and name it in endpoints\.yml: vector_store: \{type: mcp, server: /,
      ),
    ]);
  });

  it('notes a Rasa vector_store Switchboard does not read, at the flow step that would use it', async () => {
    const { dir, result } = await loadProject({
      'endpoints.yml': `${ENDPOINTS}vector_store:\n  type: qdrant\n  collection: faq\n  host: 0.0.0.0\n`,
      'data/patterns.yml': SEARCH_PATTERN,
    });
    expect(errorLines(dir, result)).toEqual([]);
    expect(notes(result)).toEqual([
      expect.stringContaining(
        '5: questions for the knowledge base (pattern_search) will not be answered: the vector_store of type qdrant is not read, action_trigger_search answers with utter_no_knowledge_base',
      ),
    ]);
  });

  it('accepts an MCP search tool as vector_store, saying the policy settings are not used', async () => {
    const { dir, result } = await loadProject({
      'config.yml': CONFIG_WITH_POLICY,
      'endpoints.yml': `${ENDPOINTS}vector_store:\n  type: mcp\n  server: tools\n  tool: search_docs\n`,
      'data/patterns.yml': SEARCH_PATTERN,
    });
    expect(errorLines(dir, result)).toEqual([]);
    expect(notes(result)).toEqual([
      '7: EnterpriseSearchPolicy does not run here and its settings are not used: action_trigger_search answers through the tool search_docs of the MCP server tools (endpoints.yml vector_store)',
    ]);
    expect(result.ok && result.assistant.knowledge).toEqual({
      type: 'mcp',
      server: 'tools',
      tool: 'search_docs',
      query_param: 'query',
    });
  });

  it('says when nothing runs action_trigger_search, so the search tool is never asked', async () => {
    const { result } = await loadProject({
      'endpoints.yml': `${ENDPOINTS}vector_store:\n  type: agent\n  agent: helper\n`,
    });
    expect(notes(result)).toEqual([
      expect.stringMatching(
        /^10: vector_store: nothing runs action_trigger_search, so the sub agent helper/,
      ),
    ]);
  });

  it('refuses a vector_store naming an MCP server or agent that does not exist', async () => {
    const { dir, result } = await loadProject({
      'endpoints.yml': `${ENDPOINTS}vector_store:\n  type: mcp\n  server: tool\n  tool: search_docs\n  top_k: 3\n`,
      'data/patterns.yml': SEARCH_PATTERN,
    });
    expect(errorLines(dir, result)).toEqual([
      'endpoints.yml:14:3: unknown key "top_k" in vector_store; allowed: type, server, tool, query_param, arguments',
    ]);
    const missing = await loadProject({
      'endpoints.yml': `${ENDPOINTS}vector_store:\n  type: mcp\n  server: tool\n  tool: search_docs\n`,
      'data/patterns.yml': SEARCH_PATTERN,
    });
    expect(errorLines(missing.dir, missing.result)).toEqual([
      'endpoints.yml:12:11: vector_store.server "tool" is not an MCP server of mcp_servers (did you mean "tools"?)',
    ]);
  });
});
