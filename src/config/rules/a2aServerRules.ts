import type { A2AServerSettings } from '../../assistant/index.js';
import { formatKeyPath } from '../keyPath.js';
import type { LoadContext } from '../loadContext.js';
import type { ProjectFiles } from '../projectFiles.js';
import { readAgentCard } from './agentCard.js';

/**
 * Endpoints.yml's `a2a_server` block: its static card file (read and checked now), and skills
 * with ids of their own. Undefined when the assistant is not served over A2A.
 */
export async function checkA2AServer(
  ctx: LoadContext,
  files: ProjectFiles,
): Promise<A2AServerSettings | undefined> {
  const endpoints = files.endpoints;
  const server = endpoints?.value.a2a_server;
  if (!endpoints || !server) return undefined;
  const { source } = endpoints;
  const seen = new Set<string>();
  server.skills?.forEach((skill, i) => {
    const path = ['a2a_server', 'skills', i, 'id'];
    if (seen.has(skill.id)) {
      ctx.error(source, path, `${formatKeyPath(path)} "${skill.id}" is listed twice`);
    }
    seen.add(skill.id);
  });
  const reference = server.agent_card_path;
  if (reference === undefined) return server;
  const path = ['a2a_server', 'agent_card_path'];
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(reference)) {
    ctx.error(source, path, `${formatKeyPath(path)} must be a file in the project, not a URL`);
    return server;
  }
  const card = await readAgentCard(ctx, source, path, reference, { interfaces: 'optional' });
  return card?.kind === 'file' ? { ...server, staticCard: card.card } : server;
}
