import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

async function sources(dir: string): Promise<string[]> {
  const entries = await readdir(path.join(root, dir), { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)));
}

/** What only the wiring function may do: build an engine or run jobs outside a runtime. */
const HAND_WIRING = [
  /new DialogueEngine\(/,
  /\bprocessJob(RetryingRaces)?\(\s*\w+\s*,\s*\w+\s*,/,
  /runtime\/(commit|agentSteps|delivery|createRuntime|httpRuntime)\.js/,
];

describe('entry points', () => {
  it('build their runtime only through createRuntime or createHttpRuntime', async () => {
    const files = [...(await sources('functions')), ...(await sources('src/cli'))];
    expect(files.length).toBeGreaterThan(5);
    const offending: string[] = [];
    for (const file of files) {
      const text = await readFile(path.join(root, file), 'utf8');
      for (const pattern of HAND_WIRING)
        if (pattern.test(text)) offending.push(`${file}: ${pattern}`);
    }
    expect(offending).toEqual([]);
  });
});
