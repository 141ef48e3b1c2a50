import type { ModuleLocation } from '../../assistant/index.js';
import type { LoadContext } from '../loadContext.js';
import { importProjectModule, isClass } from '../modules.js';

/** The module whose exported functions are the project's custom actions. */
export const CUSTOM_ACTIONS_MODULE = 'custom.actions';

/**
 * Finds the project's custom actions: the exported functions of `custom/actions.ts` (optional),
 * each named by its export. Returns their locations by action name.
 */
export async function readCustomActions(
  ctx: LoadContext,
  extensions: Map<string, ModuleLocation>,
): Promise<Map<string, ModuleLocation>> {
  const actions = new Map<string, ModuleLocation>();
  const imported = await importProjectModule(ctx.projectDir, CUSTOM_ACTIONS_MODULE);
  if (!imported.ok) {
    if (!imported.missing) ctx.fileError(imported.file ?? ctx.projectDir, imported.reason);
    return actions;
  }
  for (const [name, value] of Object.entries(imported.namespace)) {
    if (name === 'default' || typeof value !== 'function' || isClass(value)) continue;
    const modulePath = `${CUSTOM_ACTIONS_MODULE}.${name}`;
    const location = { modulePath, file: imported.file, exportName: name };
    actions.set(name, location);
    extensions.set(modulePath, location);
    ctx.declared.actions.add(name);
  }
  return actions;
}
