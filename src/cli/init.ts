import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { relativeFile } from '../config/index.js';
import { type CliIo, EXIT, UsageError } from './io.js';

const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The scaffold's files, as `init` writes them (but for the renamed ones below). */
export const TEMPLATE_DIR = path.join(PACKAGE_ROOT, 'templates', 'init');

/** Files the template keeps under another name: npm leaves `.gitignore` out of a package. */
const RENAMED: Readonly<Record<string, string>> = {
  gitignore: '.gitignore',
  'env.example': '.env.example',
};

/** What the scaffold's package.json runs; existing scripts of the same name are kept. */
const SCRIPTS: Readonly<Record<string, string>> = {
  start: 'switchboard run --peers mcp/orders.ts',
  test: 'switchboard test --peers mcp/orders.ts',
  validate: 'switchboard validate',
  synth: 'cdk synth -c project=.',
  deploy: 'cdk deploy --all -c project=.',
};

/** Packages the scaffold's own code imports (its MCP server), at the versions Switchboard uses. */
const SCAFFOLD_IMPORTS = ['@modelcontextprotocol/sdk', 'zod'] as const;

interface PackageJson {
  name?: string;
  version?: string;
  private?: boolean;
  type?: string;
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  [key: string]: unknown;
}

/**
 * `switchboard init [DIR]`: writes a working assistant into DIR (default: the current folder):
 * Rasa's layout with one flow, a ReAct agent on an MCP server that ships with it, e2e tests with
 * the scripted answers that let it run without a model key, and a package.json. A package.json
 * already there keeps its fields and gains the scripts and dependencies it lacks. Nothing else is
 * overwritten unless --force.
 */
export async function initCommand(args: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...args],
    options: { force: { type: 'boolean', default: false } },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length > 1)
    throw new UsageError(`one folder at most, got ${positionals.join(' ')}`);
  const dir = path.resolve(io.cwd, positionals[0] ?? '.');
  const files = await templateFiles(TEMPLATE_DIR);
  const targets = files.map((file) => ({
    from: path.join(TEMPLATE_DIR, file),
    to: path.join(dir, renamed(file)),
  }));
  const packageFile = path.join(dir, 'package.json');
  // Everything is checked before anything is written: a refused init leaves the folder as it was.
  const problems: string[] = [];
  const taken: string[] = [];
  for (const file of [dir, ...new Set(targets.map((t) => path.dirname(t.to)))]) {
    const blocking = await fileOnTheWay(file);
    if (blocking) problems.push(`${relativeFile(blocking, io.cwd)} is a file, not a folder`);
  }
  for (const { to } of targets) {
    const found = await kind(to);
    if (found === 'folder') problems.push(`${relativeFile(to, io.cwd)} is a folder, not a file`);
    else if (found === 'file' && !values.force) taken.push(to);
  }
  if ((await kind(packageFile)) === 'folder') {
    problems.push(`${relativeFile(packageFile, io.cwd)} is a folder, not a file`);
  }
  let existing: PackageJson | undefined;
  if (problems.length === 0) {
    const read = await readPackage(packageFile);
    if (typeof read === 'string') problems.push(`${relativeFile(packageFile, io.cwd)}: ${read}`);
    else existing = read;
  }
  if (problems.length > 0) {
    for (const problem of [...new Set(problems)]) io.err(problem);
    io.err('switchboard init: nothing was written');
    return EXIT.invalid;
  }
  if (taken.length > 0) {
    for (const file of taken) io.err(`${relativeFile(file, io.cwd)} already exists`);
    io.err(
      `switchboard init: ${taken.length} file(s) would be overwritten; nothing was written. Choose an empty folder or pass --force`,
    );
    return EXIT.invalid;
  }
  for (const { from, to } of targets) {
    await mkdir(path.dirname(to), { recursive: true });
    await writeFile(to, await readFile(from));
  }
  const written = await scaffoldPackage(existing, path.basename(dir));
  await writeFile(packageFile, `${JSON.stringify(written, null, 2)}\n`);
  for (const name of Object.keys(SCRIPTS)) {
    if (existing?.scripts?.[name] !== undefined && existing.scripts[name] !== SCRIPTS[name]) {
      io.err(
        `package.json keeps its own "${name}" script (${existing.scripts[name]}); Switchboard's would be: ${SCRIPTS[name]}`,
      );
    }
  }
  const shown = relativeFile(dir, io.cwd) || '.';
  io.out(`created an assistant in ${shown} (${targets.length + 1} files)`);
  io.out('next:');
  if (shown !== '.') io.out(`  cd ${/[^\w./-]/.test(shown) ? JSON.stringify(shown) : shown}`);
  io.out('  npm install');
  io.out('  npm start      # chat on http://127.0.0.1:5005; without OPENAI_API_KEY a scripted');
  io.out('                 # model answers the messages of tests/e2e_commands.yml');
  io.out('  npm test       # the conversation tests in tests/');
  return EXIT.ok;
}

function renamed(file: string): string {
  const base = path.basename(file);
  const name = RENAMED[base];
  return name ? path.join(path.dirname(file), name) : file;
}

/** The template's files, relative to it, sorted. */
async function templateFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}

async function kind(file: string): Promise<'file' | 'folder' | undefined> {
  const found = await stat(file).catch(() => undefined);
  if (!found) return undefined;
  return found.isDirectory() ? 'folder' : 'file';
}

/** The package.json there, undefined when there is none, or why it cannot be read. */
async function readPackage(file: string): Promise<PackageJson | undefined | string> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      return parsed as PackageJson;
    }
    return 'not a JSON object; fix it or remove it, then run init again';
  } catch (error) {
    return `not valid JSON (${error instanceof Error ? error.message : String(error)}); fix it or remove it, then run init again`;
  }
}

/** The nearest of `file` and its parents that exists, when that is a file (so no folder fits). */
async function fileOnTheWay(file: string): Promise<string | undefined> {
  for (let at = file; ; at = path.dirname(at)) {
    const found = await kind(at);
    if (found === 'file') return at;
    if (found === 'folder' || path.dirname(at) === at) return undefined;
  }
}

/**
 * The scaffold's package.json: a new one, or the existing one with the scripts and dependencies it
 * lacks. Switchboard's own version (and those of the packages the scaffold imports) come from
 * this installation, so a project starts on the release that wrote it.
 */
async function scaffoldPackage(existing: PackageJson | undefined, folder: string) {
  const ours = JSON.parse(
    await readFile(path.join(PACKAGE_ROOT, 'package.json'), 'utf8'),
  ) as PackageJson;
  const dependencies: Record<string, string> = {
    switchboard: `^${ours.version ?? '0.0.0'}`,
  };
  for (const name of SCAFFOLD_IMPORTS) {
    const version = ours.dependencies?.[name];
    if (version) dependencies[name] = version;
  }
  if (!existing) {
    return {
      name: packageName(folder),
      version: '0.1.0',
      private: true,
      type: 'module',
      scripts: { ...SCRIPTS },
      dependencies,
    };
  }
  const has = (name: string) =>
    existing.dependencies?.[name] !== undefined || existing.devDependencies?.[name] !== undefined;
  return {
    ...existing,
    scripts: { ...SCRIPTS, ...existing.scripts },
    dependencies: {
      ...existing.dependencies,
      ...Object.fromEntries(Object.entries(dependencies).filter(([name]) => !has(name))),
    },
  };
}

/** A valid npm package name from a folder name. */
function packageName(folder: string): string {
  const name = folder
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[._-]+|-+$/g, '');
  return name || 'my-assistant';
}
