import { describe, expect, it } from 'vitest';
import { sourceFiles } from './sourceFiles.js';

/** Lines a file of src may have: past this it has grown a second job and wants splitting. */
const MAX_LINES = 400;

describe('the files of src', () => {
  it(`have at most ${MAX_LINES} lines each`, () => {
    const files = sourceFiles();
    expect(files.length).toBeGreaterThan(100);
    const long = files
      .filter((file) => file.lines > MAX_LINES)
      .map((file) => `${file.name}: ${file.lines} lines`);
    expect(long, `files over ${MAX_LINES} lines`).toEqual([]);
  });
});
