import { describe, expect, it } from 'vitest';
import { describeCycle, findCycle, sourceFiles } from './sourceFiles.js';

const files = sourceFiles();

/** File → files it imports; each edge names the importing file, as the folder graph does. */
const graph = new Map(
  files.map((file) => [file.name, new Map(file.local.map((target) => [target, file.name]))]),
);

describe('the files of src', () => {
  it('import each other without a circle, type imports included', () => {
    expect(graph.get('dialogue/engine.ts')?.has('dialogue/turnResult.ts')).toBe(true);
    const cycle = findCycle(graph);
    expect(cycle && describeCycle(cycle, graph)).toBeUndefined();
  });
});
