import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ModuleLocation } from '../assistant/index.js';
import { followLinks, isFile } from './projectTree.js';

const EXTENSIONS = ['.ts', '.mts', '.js', '.mjs'];

export type ImportedModule =
  | { readonly ok: true; readonly file: string; readonly namespace: Record<string, unknown> }
  | {
      readonly ok: false;
      readonly missing: boolean;
      readonly reason: string;
      readonly file?: string;
    };

export type ResolvedExport =
  | { readonly ok: true; readonly location: ModuleLocation; readonly value: unknown }
  | { readonly ok: false; readonly reason: string };

/**
 * Imports the project module a dotted path names: `custom.car_agent` is `custom/car_agent.ts`
 * (or .mts/.js/.mjs, or `custom/car_agent/index.ts`) under the project directory.
 */
export async function importProjectModule(
  projectDir: string,
  dotted: string,
): Promise<ImportedModule> {
  const base = path.join(projectDir, ...dotted.split('.'));
  const candidates = EXTENSIONS.flatMap((ext) => [`${base}${ext}`, path.join(base, `index${ext}`)]);
  const file = await firstExisting(candidates);
  if (!file) {
    const shown = path.relative(projectDir, `${base}.ts`);
    const python = await firstExisting([`${base}.py`, path.join(base, '__init__.py')]);
    if (python) {
      return {
        ok: false,
        missing: true,
        reason: `is Python (${path.relative(projectDir, python)}), which Switchboard does not run: customizations are written in TypeScript, as ${shown}`,
      };
    }
    return {
      ok: false,
      missing: true,
      reason: `there is no module ${shown} (or .js) in the project`,
    };
  }
  try {
    return {
      ok: true,
      file,
      namespace: (await import(pathToFileURL(file).href)) as Record<string, unknown>,
    };
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    const reason = `${path.relative(projectDir, file)} fails to load: ${message}`;
    return { ok: false, missing: false, reason, file };
  }
}

/** Resolves `custom.car_agent.CarAgent` to the export `CarAgent` of `custom/car_agent.ts`. */
export async function resolveExport(
  projectDir: string,
  modulePath: string,
): Promise<ResolvedExport> {
  const segments = modulePath.split('.');
  const exportName = segments.pop() ?? '';
  const imported = await importProjectModule(projectDir, segments.join('.'));
  if (!imported.ok) return imported;
  const { file, namespace } = imported;
  if (!(exportName in namespace)) {
    const names = Object.keys(namespace).filter((n) => n !== 'default');
    const listed = names.length > 0 ? ` (it exports ${names.join(', ')})` : ' (it exports nothing)';
    return {
      ok: false,
      reason: `${path.relative(projectDir, file)} has no export named ${exportName}${listed}`,
    };
  }
  return { ok: true, location: { modulePath, file, exportName }, value: namespace[exportName] };
}

/** True for a class (not a plain function). */
export function isClass(value: unknown): boolean {
  return typeof value === 'function' && /^class[\s{]/.test(Function.prototype.toString.call(value));
}

/** The first of the files that exists, as the path to import (links followed). */
async function firstExisting(files: readonly string[]): Promise<string | undefined> {
  for (const file of files) {
    if (await isFile(file)) return followLinks(file);
  }
  return undefined;
}
