/**
 * Packages only some commands need (the local emulators, the demo peers' web server) are optional
 * peers of Switchboard's: an install for AWS leaves them out. A command that needs one imports it
 * here, and says how to install it when it is missing.
 */
import { SwitchboardError } from './errors.js';

/** An optional package a command needs is not installed. Code `OPTIONAL_PACKAGE_MISSING`. */
export class OptionalPackageError extends SwitchboardError {
  override readonly name = 'OptionalPackageError';
  override readonly code = 'OPTIONAL_PACKAGE_MISSING';
}

/**
 * Imports `name`, or throws `OptionalPackageError` naming what needs it and the command that
 * installs `install` (the package and those that go with it, at Switchboard's pinned versions).
 */
export async function importOptional<T>(
  name: string,
  purpose: string,
  install: readonly string[],
  load: () => Promise<T>,
): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (!isMissing(error, name)) throw error;
    throw new OptionalPackageError(
      `${purpose} needs the package ${name}, which is not installed: npm install --save-dev ${install.join(' ')}`,
      { cause: error },
    );
  }
}

function isMissing(error: unknown, name: string): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return false;
  // Node names the package it could not find in quotes; a package missing under it (a
  // dependency of the optional package) is that package's problem, not a missing install.
  const message = error instanceof Error ? error.message : '';
  return new RegExp(`Cannot find (package|module) ['"]${name}['"/]`).test(message);
}
