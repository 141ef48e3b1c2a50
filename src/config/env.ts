import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'dotenv';
import type { Environment } from './interpolate.js';

/**
 * The environment a project sees: its `.env` file (when present) under the process environment,
 * which wins.
 */
export async function projectEnvironment(
  projectDir: string,
  processEnv: Environment = process.env,
): Promise<Environment> {
  let fromFile: Record<string, string> = {};
  try {
    fromFile = parse(await readFile(path.join(projectDir, '.env'), 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  return { ...fromFile, ...definedOnly(processEnv) };
}

function definedOnly(env: Environment): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}
