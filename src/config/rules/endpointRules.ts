import type { ModuleLocation } from '../../assistant/index.js';
import { formatKeyPath, type KeyPath } from '../keyPath.js';
import type { LoadContext } from '../loadContext.js';
import type { ProjectIndex } from '../projectIndex.js';
import type { YamlSource } from '../yamlSource.js';
import { checkSlotExists } from './conditions.js';
import { checkExport } from './references.js';

/** The header keys that only make sense with an API key. */
export function checkApiKeyHeaders(
  ctx: LoadContext,
  source: YamlSource,
  path: KeyPath,
  auth: { api_key?: unknown; header_name?: string | undefined; header_format?: string | undefined },
): void {
  if (auth.api_key !== undefined) return;
  for (const key of ['header_name', 'header_format'] as const) {
    if (auth[key] !== undefined) {
      ctx.error(
        source,
        [...path, key],
        `${formatKeyPath([...path, key])} applies only together with api_key`,
        'key',
      );
    }
  }
}

/** Rules on MCP servers: URL scheme, auth headers, hooks, and slot-backed metadata. */
export async function checkEndpoints(
  ctx: LoadContext,
  index: ProjectIndex,
  extensions: Map<string, ModuleLocation>,
): Promise<void> {
  const checks: Promise<void>[] = [];
  for (const [, { value: server, source, path: namePath }] of index.servers) {
    const path = namePath.slice(0, -1);
    const scheme = new URL(server.url).protocol.replace(':', '');
    if (server.type !== undefined && server.type !== scheme) {
      ctx.error(
        source,
        [...path, 'type'],
        `${formatKeyPath([...path, 'type'])} is ${server.type} but the url uses ${scheme}`,
      );
    }
    checkApiKeyHeaders(ctx, source, path, server);
    server.meta_map?.from_slots?.forEach((entry, i) => {
      checkSlotExists(ctx, source, [...path, 'meta_map', 'from_slots', i, 'slot'], entry.slot);
    });
    const hook = server.pre_call_hook;
    if (hook) {
      checks.push(
        checkExport(ctx, source, [...path, 'pre_call_hook'], hook, 'function').then((loc) => {
          if (loc) extensions.set(hook, loc);
        }),
      );
    }
  }
  await Promise.all(checks);
}
