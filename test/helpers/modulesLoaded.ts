import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { tempDir } from './tempDirs.js';

/**
 * Runs `node <args>` in a fresh process with a module hook that writes down every module it
 * loads, and answers the URLs of those modules, in order, with what the process printed.
 */
export async function modulesLoaded(
  args: readonly string[],
  options: {
    readonly cwd?: string;
    readonly env?: Readonly<Record<string, string | undefined>>;
  } = {},
): Promise<{ urls: string[]; stdout: string }> {
  const dir = await tempDir('switchboard-loaded-');
  const log = path.join(dir, 'loaded.log');
  const hooks = path.join(dir, 'hooks.mjs');
  const registrar = path.join(dir, 'register.mjs');
  await writeFile(
    hooks,
    `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(${JSON.stringify(log)}, url + '\\n');
  return next(url, context);
}
`,
  );
  await writeFile(
    registrar,
    `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`,
  );
  await writeFile(log, '');
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', registrar, ...args], {
    ...(options.cwd ? { cwd: options.cwd } : {}),
    env: { ...process.env, ...options.env },
  });
  return { urls: (await readFile(log, 'utf8')).split('\n').filter(Boolean), stdout };
}
