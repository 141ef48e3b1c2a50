import { execFileSync } from 'node:child_process';
import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { TRACING_SWITCH } from '../infra/constructs/handlerFunction.js';
import { generateAssistantBundle } from '../src/build/index.js';
import { round } from './harness.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const HANDLERS = ['webhook', 'worker', 'delay', 'a2aPush', 'a2aServer'] as const;
const REQUIRE_BANNER =
  "import { createRequire as topLevelCreateRequire } from 'node:module'; const require = topLevelCreateRequire(import.meta.url);";

/** Settings a deployed function reads; the cold import only builds clients, it calls nothing. */
const FUNCTION_ENV = {
  TABLE_NAME: 'switchboard-bench',
  JOBS_QUEUE_URL: 'http://127.0.0.1:9/queue/jobs.fifo',
  DELAY_QUEUE_URL: 'http://127.0.0.1:9/queue/delayed',
  SECRET_PREFIX: 'switchboard/',
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'bench',
  AWS_SECRET_ACCESS_KEY: 'bench',
  AWS_EC2_METADATA_DISABLED: 'true',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  POWERTOOLS_DEV: 'false',
  POWERTOOLS_LOG_LEVEL: 'ERROR',
};

/**
 * Each Lambda handler bundled as `cdk deploy` bundles it (esbuild, ESM, minified, the AWS SDK
 * external): its size, and the time a fresh Node process takes to import it (the cold start's
 * module initialisation, without the Lambda runtime).
 */
export async function bundlesBenchmark(): Promise<Record<string, unknown>> {
  const outDir = path.join(root, 'bench', 'results', 'bundles');
  await mkdir(outDir, { recursive: true });
  const { registryFile } = await generateAssistantBundle(
    root,
    undefined,
    path.join(outDir, 'assistant'),
  );
  const results: Record<string, unknown> = {};
  for (const handler of HANDLERS) {
    const outfile = path.join(outDir, `${handler}.mjs`);
    await build({
      entryPoints: [path.join(root, 'functions', `${handler}.ts`)],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node22',
      mainFields: ['module', 'main'],
      banner: { js: REQUIRE_BANNER },
      minify: true,
      external: ['@aws-sdk/*'],
      define: { [TRACING_SWITCH]: '"false"' },
      alias: { '@switchboard/bundle': registryFile },
      outfile,
      logLevel: 'error',
    });
    const bytes = (await stat(outfile)).size;
    const imports: number[] = [];
    for (let i = 0; i < 5; i++) imports.push(coldImportMs(outfile));
    imports.sort((a, b) => a - b);
    results[handler] = {
      bundleBytes: bytes,
      coldImportMedianMs: round(imports[2] ?? 0, 1),
      coldImportMinMs: round(imports[0] ?? 0, 1),
    };
  }
  return results;
}

function coldImportMs(file: string): number {
  // The streaming handlers call the Lambda runtime's global `awslambda` as they load.
  const script = `globalThis.awslambda = { streamifyResponse: (handler) => handler }; const t = performance.now(); await import(${JSON.stringify(pathToFileURL(file).href)}); process.stdout.write(String(performance.now() - t));`;
  const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: root,
    env: { ...process.env, ...FUNCTION_ENV },
    encoding: 'utf8',
  });
  return Number(output.trim().split('\n').pop());
}
