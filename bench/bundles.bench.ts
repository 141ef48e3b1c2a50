import { execFileSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  type BundleReport,
  bundleHandler,
  HANDLERS,
  type HandlerName,
} from '../infra/handlerBundles.js';
import { generateAssistantBundle } from '../src/build/index.js';
import { round } from './harness.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

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

const IMPORTS = 7;

/**
 * Each Lambda handler bundled as `cdk deploy` bundles it, for the example assistant (all three
 * kinds of sub agent), beside its reference bundle (only the AWS SDK clients it imports): sizes
 * and budget, and the time a fresh Node process takes to import each (the cold start's module
 * initialisation, without the Lambda runtime), median of 7, alternating handler and reference.
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
  for (const handler of Object.keys(HANDLERS) as HandlerName[]) {
    const report = await bundleHandler(handler, { outDir, registryFile });
    results[handler] = { ...sizes(report), ...coldImports(report) };
  }
  return results;
}

function sizes(report: BundleReport) {
  return {
    bundleBytes: report.bytes,
    onDemandBytes: report.onDemandBytes,
    referenceBytes: report.referenceBytes,
    budgetBytes: report.budgetBytes,
    withinBudget: report.bytes <= report.budgetBytes,
    awsClients: report.awsClients,
    biggestInputs: Object.fromEntries(report.inputs.slice(0, 6).map((i) => [i.name, i.bytes])),
  };
}

function coldImports(report: BundleReport) {
  const bundle: number[] = [];
  const reference: number[] = [];
  for (let i = 0; i < IMPORTS; i++) {
    bundle.push(coldImportMs(report.file));
    reference.push(coldImportMs(report.referenceFile));
  }
  const afterReference: number[] = [];
  for (let i = 0; i < IMPORTS; i++)
    afterReference.push(coldImportMs(report.file, report.referenceFile));
  const bundleMs = median(bundle);
  const referenceMs = median(reference);
  return {
    coldImportMedianMs: round(bundleMs, 1),
    referenceColdImportMedianMs: round(referenceMs, 1),
    coldImportOverReferenceMs: round(bundleMs - referenceMs, 1),
    // The same difference taken inside one process: the bundle imported once its reference (the
    // AWS SDK clients) has loaded. Two processes' start-up drift does not enter it.
    coldImportAfterReferenceMs: round(median(afterReference), 1),
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** A fresh process's time to import `file`, after importing `loadedFirst` when given. */
function coldImportMs(file: string, loadedFirst?: string): number {
  const first = loadedFirst
    ? `await import(${JSON.stringify(pathToFileURL(loadedFirst).href)}); `
    : '';
  // The streaming handlers call the Lambda runtime's global `awslambda` as they load.
  const script = `globalThis.awslambda = { streamifyResponse: (handler) => handler }; ${first}const t = performance.now(); await import(${JSON.stringify(pathToFileURL(file).href)}); process.stdout.write(String(performance.now() - t));`;
  const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: root,
    env: { ...process.env, ...FUNCTION_ENV },
    encoding: 'utf8',
  });
  return Number(output.trim().split('\n').pop());
}
