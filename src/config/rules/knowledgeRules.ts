import path from 'node:path';
import type { FlowStep, NextBranch } from '../../assistant/index.js';
import type { KeyPath } from '../keyPath.js';
import type { LoadContext } from '../loadContext.js';
import type { ProjectFiles } from '../projectFiles.js';
import type { ProjectIndex } from '../projectIndex.js';
import { isDirectory } from '../projectTree.js';
import type { YamlSource } from '../yamlSource.js';
import { didYouMean } from '../zodDiagnostics.js';

const TRIGGER = 'action_trigger_search';
const POLICY = 'EnterpriseSearchPolicy';
const HOW_TO =
  'to answer them, serve a search tool over MCP and name it in endpoints.yml: vector_store: {type: mcp, server: <an mcp_servers name>, tool: <its search tool>} (or type: agent with a sub agent), and let pattern_search run action_trigger_search';

/** A place in a file that a note points at. */
interface Spot {
  readonly source: YamlSource;
  readonly path: KeyPath;
}

/**
 * Knowledge questions (`pattern_search`): says what will not answer them, and checks the
 * `vector_store` that answers them here. Rasa answers them with its EnterpriseSearchPolicy over
 * a vector store (by default the documents in docs/); Switchboard runs neither, and searches an
 * MCP tool or asks a sub agent instead.
 */
export async function checkKnowledge(
  ctx: LoadContext,
  files: ProjectFiles,
  index: ProjectIndex,
): Promise<void> {
  const endpoints = files.endpoints;
  const store = endpoints?.value.vector_store;
  const policy = policyEntry(files);
  const trigger = triggerStep(index);
  if (store?.type === 'mcp' || store?.type === 'agent') {
    const at = endpoints?.source as YamlSource;
    checkReference(ctx, at, store);
    const answers =
      store.type === 'mcp'
        ? `the tool ${store.tool} of the MCP server ${store.server}`
        : `the sub agent ${store.agent}`;
    if (policy) {
      ctx.note(
        policy.source,
        policy.path,
        `${POLICY} does not run here and its settings are not used: action_trigger_search answers through ${answers} (endpoints.yml vector_store)`,
      );
    }
    if (!trigger) {
      ctx.note(
        at,
        ['vector_store'],
        `vector_store: nothing runs action_trigger_search, so ${answers} is never asked: as in Rasa, the default pattern_search answers with utter_no_knowledge_base; override it in your flows with the step "- action: action_trigger_search"`,
        'key',
      );
    }
    return;
  }
  const rasaStore = store?.type === 'rasa' ? store.rasa_type : undefined;
  const spot: (Spot & { prefix?: string }) | undefined =
    policy ??
    trigger ??
    (rasaStore !== undefined && endpoints
      ? { source: endpoints.source, path: ['vector_store'], prefix: 'vector_store: ' }
      : undefined);
  if (!spot) return;
  const documents =
    policy !== undefined && (await isDirectory(path.join(ctx.projectDir, policy.documents)));
  const missing = [
    ...(policy ? [`${POLICY} does not run here`] : []),
    ...(documents ? [`the documents in ${policy?.documents}/ are not searched`] : []),
    ...(rasaStore !== undefined ? [`the vector_store of type ${rasaStore} is not read`] : []),
    'action_trigger_search answers with utter_no_knowledge_base',
  ];
  ctx.note(
    spot.source,
    spot.path,
    `${spot.prefix ?? ''}questions for the knowledge base (pattern_search) will not be answered: ${missing.join(', ')}; ${HOW_TO}`,
    spot.prefix === undefined ? 'value' : 'key',
  );
}

function checkReference(
  ctx: LoadContext,
  source: YamlSource,
  store: { type: 'mcp'; server: string } | { type: 'agent'; agent: string },
): void {
  const declared = ctx.declared;
  if (store.type === 'mcp' && !declared.servers.has(store.server)) {
    ctx.error(
      source,
      ['vector_store', 'server'],
      `vector_store.server "${store.server}" is not an MCP server of mcp_servers${didYouMean(store.server, [...declared.servers])}`,
    );
  }
  if (store.type === 'agent' && !declared.agents.has(store.agent)) {
    ctx.error(
      source,
      ['vector_store', 'agent'],
      `vector_store.agent "${store.agent}" is not a sub agent${didYouMean(store.agent, [...declared.agents])}`,
    );
  }
}

/** config.yml's EnterpriseSearchPolicy entry, as written, and the folder its documents are in. */
function policyEntry(files: ProjectFiles): (Spot & { documents: string }) | undefined {
  const source = files.config?.source;
  const policies = field(source?.data, 'policies');
  if (!source || !Array.isArray(policies)) return undefined;
  const i = policies.findIndex((p) =>
    /(^|\.)EnterpriseSearchPolicy$/.test(String(field(p, 'name'))),
  );
  if (i < 0) return undefined;
  const folder = field(field(policies[i], 'vector_store'), 'source');
  const documents = typeof folder === 'string' ? folder.replace(/^\.\/|\/$/g, '') : 'docs';
  return { source, path: ['policies', i, 'name'], documents };
}

/** The first flow step that runs action_trigger_search, if any. */
function triggerStep(index: ProjectIndex): Spot | undefined {
  for (const flow of index.flows.values()) {
    const found = findIn(flow.value.steps, [...flow.path, 'steps']);
    if (found) return { source: flow.source, path: found };
  }
  return undefined;
}

function findIn(steps: readonly FlowStep[], at: KeyPath): KeyPath | undefined {
  for (const [i, step] of steps.entries()) {
    if ('action' in step && step.action === TRIGGER) return [...at, i, 'action'];
    const next = 'next' in step ? step.next : undefined;
    if (!Array.isArray(next)) continue;
    for (const [j, branch] of (next as readonly NextBranch[]).entries()) {
      const target = 'then' in branch ? branch.then : branch.else;
      const key = 'then' in branch ? 'then' : 'else';
      if (typeof target === 'string') continue;
      const found = findIn(target, [...at, i, 'next', j, key]);
      if (found) return found;
    }
  }
  return undefined;
}

function field(data: unknown, key: string): unknown {
  return data !== null && typeof data === 'object'
    ? (data as Record<string, unknown>)[key]
    : undefined;
}
