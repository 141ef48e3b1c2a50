import * as z from 'zod';
import type { AgentCardSource } from '../../assistant/index.js';
import { formatKeyPath, type KeyPath } from '../keyPath.js';
import type { LoadContext } from '../loadContext.js';
import { readProjectFile } from '../projectTree.js';
import type { YamlSource } from '../yamlSource.js';
import { resolveProjectFile } from './references.js';

/** The few card fields we rely on: a name, and where the agent is served (checked apart). */
const CardFields = z.looseObject({
  name: z.string({ error: 'is missing' }).min(1, { error: 'must not be empty' }),
  url: z.string().optional(),
  supportedInterfaces: z.array(z.unknown()).optional(),
});
/** A card of an agent to call: v0.3 `url` or v1.0 `supportedInterfaces`; other fields pass. */
const CardShape = CardFields.refine(
  (card) => card.url !== undefined || card.supportedInterfaces !== undefined,
  { error: 'has neither "url" (A2A 0.3) nor "supportedInterfaces" (A2A 1.0)' },
);

export interface CardOptions {
  /** `optional` for a card whose interfaces are replaced by the served ones (a2a_server). */
  readonly interfaces?: 'required' | 'optional';
}

export async function readAgentCard(
  ctx: LoadContext,
  source: YamlSource,
  path: KeyPath,
  reference: string,
  options: CardOptions = {},
): Promise<AgentCardSource | undefined> {
  const where = formatKeyPath(path);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(reference)) {
    if (/^https?:\/\//i.test(reference) && URL.canParse(reference))
      return { kind: 'url', url: reference };
    ctx.error(
      source,
      path,
      `${where} "${reference}" must be an http(s) URL or a file in the project`,
    );
    return undefined;
  }
  const file = resolveProjectFile(ctx, reference);
  let text: string;
  try {
    text = await readProjectFile(file);
  } catch {
    ctx.error(source, path, `${where}: agent card file ${reference} does not exist`);
    return undefined;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    ctx.error(
      source,
      path,
      `${where}: agent card ${reference} is not valid JSON (${(error as Error).message})`,
    );
    return undefined;
  }
  const card = (options.interfaces === 'optional' ? CardFields : CardShape).safeParse(json);
  if (!card.success) {
    const first = card.error.issues[0];
    const field = first && first.path.length > 0 ? `"${first.path.join('.')}" ` : '';
    ctx.error(
      source,
      path,
      `${where}: agent card ${reference} ${field}${first?.message ?? 'is invalid'}`,
    );
    return undefined;
  }
  return { kind: 'file', file, card: card.data };
}
