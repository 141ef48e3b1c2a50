import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseCondition } from '../../../src/assistant/index.js';
import {
  BUILTIN_NATIVE_FLOWS,
  BUILTIN_PATTERN_FLOWS,
  BUILTIN_PATTERN_RESPONSES,
} from '../../../src/assistant/patterns/builtinData.generated.js';
import { generatedSources } from '../../../src/build/generatedSources.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

describe('the generated sources', () => {
  it('are what their sources generate today (npm run generate writes them)', async () => {
    const stale: string[] = [];
    for (const [file, content] of Object.entries(generatedSources())) {
      const committed = await readFile(path.join(root, file), 'utf8');
      if (committed !== content) stale.push(`${file} is out of date: run npm run generate`);
    }
    expect(stale).toEqual([]);
  });

  it('hold the built-in patterns parsed, and the parser of the condition grammar', () => {
    expect(Object.keys(BUILTIN_PATTERN_FLOWS)).toContain('pattern_internal_error');
    expect(Object.keys(BUILTIN_NATIVE_FLOWS)).toEqual([
      'pattern_collect_information',
      'pattern_validate_slot',
    ]);
    expect(BUILTIN_PATTERN_RESPONSES.utter_internal_error_rasa?.[0]?.text).toEqual(
      expect.any(String),
    );
    expect(() => parseCondition('slots.age >')).toThrow(/cannot parse condition "slots.age >"/);
  });
});
