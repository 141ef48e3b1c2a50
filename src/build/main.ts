import path from 'node:path';
import { parseArgs } from 'node:util';
import { resolveProjectPaths } from '../config/index.js';
import { generateAssistantBundle } from './assistantBundle.js';

const USAGE =
  'usage: npm run build -- [--project DIR] [--sub-agents DIR] [--config FILE] [--endpoints FILE] [--domain PATH] [--data PATH]... [--out DIR]';

/**
 * `npm run build`: writes the assistant bundle (`.switchboard/` by default) that the worker
 * Lambda bundles. Returns the exit code: 0 written, 1 invalid project, 2 usage error.
 */
export async function main(argv: readonly string[]): Promise<number> {
  let values: {
    project?: string;
    'sub-agents'?: string;
    out?: string;
    config?: string;
    endpoints?: string;
    domain?: string;
    data?: string[];
  };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        project: { type: 'string' },
        'sub-agents': { type: 'string' },
        config: { type: 'string' },
        endpoints: { type: 'string' },
        domain: { type: 'string' },
        data: { type: 'string', multiple: true },
        out: { type: 'string' },
      },
    }));
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    return 2;
  }
  const project = path.resolve(values.project ?? '.');
  const out = path.resolve(values.out ?? '.switchboard');
  try {
    const bundle = await generateAssistantBundle(
      project,
      values['sub-agents'],
      out,
      resolveProjectPaths(project, values),
    );
    console.log(
      `wrote ${path.relative(process.cwd(), bundle.registryFile) || bundle.registryFile}`,
    );
    return 0;
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    return 1;
  }
}
