#!/usr/bin/env node
// Writes the generated sources (src/build/generatedSources.ts) from their TypeScript sources.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register();
const { generatedSources } = await import('../src/build/generatedSources.ts');
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
for (const [file, content] of Object.entries(generatedSources())) {
  await writeFile(path.join(root, file), content);
  console.log(`wrote ${file}`);
}
