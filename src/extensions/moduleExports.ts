import { pathToFileURL } from 'node:url';
import type { ModuleLocation } from '../assistant/index.js';

/** Modules a bundle already imported, by the file path the assistant names. */
export type ImportedModules = Readonly<Record<string, Record<string, unknown>>>;

/** The export a project extension points at: from the bundle's modules, or imported now. */
export async function exportAt(
  location: ModuleLocation,
  modules: ImportedModules,
): Promise<unknown> {
  const namespace =
    modules[location.file] ??
    ((await import(pathToFileURL(location.file).href)) as Record<string, unknown>);
  return namespace[location.exportName];
}
