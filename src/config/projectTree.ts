import { lstat, readdir, readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';

const YAML_FILE = /\.ya?ml$/i;
/** Links followed in one path at most; more means the links go round in a circle. */
const MAX_LINK_HOPS = 40;
/** A link stored as a file holds one path; anything longer is content. */
const LINK_FILE_MAX_BYTES = 1024;

/*
 * Projects share files through symbolic links, and a checkout without symlink support (git's
 * `core.symlinks=false`, some archives) stores each link as a small text file holding the
 * link's target path. Both are followed here: whatever reads a project file goes through these
 * functions.
 */

/**
 * The YAML files under a folder, at any depth and sorted, following links to files and folders;
 * a link back into a folder already walked is passed over, so a loop ends.
 */
export async function yamlFilesUnder(folder: string): Promise<string[]> {
  const found: string[] = [];
  const walked = new Set<string>();
  // Paths are reported as the project names them; `target` is where the folder really is.
  const walk = async (shown: string, target: string): Promise<void> => {
    const real = await realpath(target);
    if (walked.has(real)) return;
    walked.add(real);
    for (const entry of await readdir(target, { withFileTypes: true })) {
      const child = await followLinks(path.join(target, entry.name));
      const kind = await kindOf(child);
      if (kind === 'dir') await walk(path.join(shown, entry.name), child);
      else if (kind === 'file' && YAML_FILE.test(entry.name))
        found.push(path.join(shown, entry.name));
    }
  };
  await walk(folder, await followLinks(folder));
  return found.sort();
}

/** The names of the folders in `root` (links to folders included), sorted. */
export async function subfolders(root: string): Promise<string[]> {
  const dir = await followLinks(root);
  const names: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if ((await kindOf(await followLinks(path.join(dir, entry.name)))) === 'dir') {
      names.push(entry.name);
    }
  }
  return names.sort();
}

/** True for a file, or a link to one. */
export async function isFile(file: string): Promise<boolean> {
  return (await kindOf(await followLinks(file))) === 'file';
}

/** True for a folder, or a link to one. */
export async function isDirectory(dir: string): Promise<boolean> {
  return (await kindOf(await followLinks(dir))) === 'dir';
}

/** Reads a project file as text, through links (either kind) anywhere on its path. */
export async function readProjectFile(file: string): Promise<string> {
  return readFile(await followLinks(file), 'utf8');
}

/**
 * The path with every link stored as a text file replaced by its target, component by
 * component (symbolic links the file system follows itself).
 */
export async function followLinks(file: string): Promise<string> {
  let current = path.resolve(file);
  for (let hop = 0; hop < MAX_LINK_HOPS; hop++) {
    const next = await replaceFirstLinkFile(current);
    if (next === undefined) return current;
    current = next;
  }
  return current;
}

async function replaceFirstLinkFile(file: string): Promise<string | undefined> {
  const { root } = path.parse(file);
  const parts = file.slice(root.length).split(path.sep).filter(Boolean);
  let prefix = root;
  for (const [i, part] of parts.entries()) {
    prefix = path.join(prefix, part);
    const target = await linkFileTarget(prefix);
    if (target !== undefined) return path.join(target, ...parts.slice(i + 1));
  }
  return undefined;
}

/** The target of a link stored as a text file: one line naming a path that exists. */
async function linkFileTarget(file: string): Promise<string | undefined> {
  try {
    const info = await lstat(file);
    if (!info.isFile() || info.size === 0 || info.size > LINK_FILE_MAX_BYTES) return undefined;
    const text = (await readFile(file, 'utf8')).replace(/\r?\n$/, '');
    if (text.length === 0 || /[\n\r\0]/.test(text) || text.trim() !== text) return undefined;
    const target = path.resolve(path.dirname(file), text);
    if (target === file) return undefined;
    await stat(target);
    return target;
  } catch {
    return undefined;
  }
}

type EntryKind = 'file' | 'dir' | 'other';

/** What a path is once symbolic links are followed; a dangling link is neither. */
async function kindOf(file: string): Promise<EntryKind> {
  try {
    const info = await stat(file);
    return info.isFile() ? 'file' : info.isDirectory() ? 'dir' : 'other';
  } catch {
    return 'other';
  }
}
