import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadAssistant } from '../src/config/index.js';
import { measure } from './harness.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Loading and validating the example assistant: in process (warm) and as a whole CLI run. */
export async function configBenchmark(): Promise<Record<string, unknown>> {
  const inProcess = await measure(
    async () => {
      const result = await loadAssistant({ projectDir: root });
      if (!result.ok) throw new Error('the example assistant does not validate');
    },
    { runs: 30 },
  );
  const cli = await measure(
    () =>
      execFileSync(process.execPath, [path.join(root, 'bin/switchboard.js'), 'validate'], {
        cwd: root,
        stdio: 'pipe',
      }),
    { runs: 5, warmup: 1 },
  );
  return { loadExampleAssistant: inProcess, validateCommandProcess: cli };
}
