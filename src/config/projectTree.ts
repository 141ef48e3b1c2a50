import { readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';

const YAML_FILE = /\.ya?ml$/i;

/**
 * The YAML files under a folder, at any depth and sorted, following symbolic links to files and
 * folders (projects link shared domain or flow files in); a link back into a folder already
 * walked is passed over, so a loop ends.
 */
export async function yamlFilesUnder(folder: string): Promise<string[]> {
  const found: string[] = [];
  const walked = new Set<string>();
  const walk = async (dir: string): Promise<void> => {
    const real = await realpath(dir);
    if (walked.has(real)) return;
    walked.add(real);
    const entries = await readdir(dir, { withFileTypes: true });
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      const kind = entry.isSymbolicLink() ? await targetKind(full) : kindOf(entry);
      if (kind === 'dir') await walk(full);
      else if (kind === 'file' && YAML_FILE.test(entry.name)) found.push(full);
    }
  };
  await walk(folder);
  return found.sort();
}

/** The names of the folders in `root` (links to folders included), sorted. */
export async function subfolders(root: string): Promise<string[]> {
  const entries = await readdir(root, { withFileTypes: true });
  const names: string[] = [];
  for (const entry of entries) {
    const kind = entry.isSymbolicLink()
      ? await targetKind(path.join(root, entry.name))
      : kindOf(entry);
    if (kind === 'dir') names.push(entry.name);
  }
  return names.sort();
}

/** True for a file, or a link to one. */
export async function isFile(file: string): Promise<boolean> {
  return (await targetKind(file)) === 'file';
}

/** True for a folder, or a link to one. */
export async function isDirectory(dir: string): Promise<boolean> {
  return (await targetKind(dir)) === 'dir';
}

type EntryKind = 'file' | 'dir' | 'other';

function kindOf(entry: { isFile(): boolean; isDirectory(): boolean }): EntryKind {
  return entry.isFile() ? 'file' : entry.isDirectory() ? 'dir' : 'other';
}

/** What a path is once links are followed; a dangling link is neither file nor folder. */
async function targetKind(file: string): Promise<EntryKind> {
  try {
    return kindOf(await stat(file));
  } catch {
    return 'other';
  }
}
