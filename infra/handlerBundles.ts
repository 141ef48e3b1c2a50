/**
 * How the Lambda handlers are bundled, and what each may weigh. `cdk deploy` bundles through
 * `HandlerFunction` with these settings; the size check of the test suite and `npm run bench
 * bundles` bundle with esbuild directly, the same way, so that the sizes they see are the
 * deployed ones.
 *
 * A handler's budget is its reference bundle plus an allowance. The reference is built the same
 * way and imports only the AWS SDK clients the handler's bundle imports: those are left to the
 * Lambda runtime, but loading them is part of every cold start, whatever the handler does.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BuildOptions, build, type Metafile } from 'esbuild';

/** The repository root: handlers, lock file and tsconfig live here. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The import name the worker reads its generated assistant bundle from (see functions/shared/bundle.d.ts). */
export const BUNDLE_IMPORT = '@switchboard/bundle';

/** The switch `functions/shared/observability.ts` reads, a constant in each bundle. */
export const TRACING_SWITCH = 'process.env.SWITCHBOARD_TRACING';

/** The esbuild settings of every handler bundle (ESM for Node 22, minified, the AWS SDK left out). */
export const BUNDLE_SETTINGS = {
  target: 'node22',
  mainFields: ['module', 'main'],
  // ESM bundles have no `require`; some CommonJS dependencies still call it.
  banner:
    "import { createRequire as topLevelCreateRequire } from 'node:module'; const require = topLevelCreateRequire(import.meta.url);",
  external: ['@aws-sdk/*'],
} as const;

/** The constants a bundle is built with: whether it traces decides whether it holds X-Ray. */
export function bundleDefines(tracing: boolean): Record<string, string> {
  return { [TRACING_SWITCH]: JSON.stringify(String(tracing)) };
}

const KB = 1024;

/** Each handler's entry under `functions/`, and how much it may add to its reference bundle. */
export const HANDLERS = {
  webhook: { entry: 'webhook.ts', allowanceBytes: 150 * KB },
  a2aPush: { entry: 'a2aPush.ts', allowanceBytes: 150 * KB },
  delay: { entry: 'delay.ts', allowanceBytes: 150 * KB },
  // Held at their size today; their aim is 150 KB (the A2A server) and 900 KB (the worker, with
  // all three kinds of sub agent), once the SDKs they carry load only for assistants that use them.
  a2aServer: { entry: 'a2aServer.ts', allowanceBytes: 295 * KB },
  worker: { entry: 'worker.ts', allowanceBytes: 1700 * KB },
} as const;
export type HandlerName = keyof typeof HANDLERS;

/** One input of a bundle, by package (or our own folder), with the bytes it adds. */
export interface BundleInput {
  readonly name: string;
  readonly bytes: number;
}

/** A handler bundled: its size and budget, its biggest inputs and the AWS SDK clients it imports. */
export interface BundleReport {
  readonly handler: HandlerName;
  readonly file: string;
  readonly bytes: number;
  readonly referenceFile: string;
  readonly referenceBytes: number;
  readonly budgetBytes: number;
  /** Inputs by the bytes they add, biggest first. */
  readonly inputs: readonly BundleInput[];
  /** Every file the bundle holds code of, from the repository root. */
  readonly files: readonly string[];
  readonly awsClients: readonly string[];
}

/**
 * Bundles a handler and its reference into `outDir` (`<handler>.mjs`, `<handler>.reference.mjs`).
 * `registryFile` is the generated assistant bundle the worker and the A2A server import.
 */
export async function bundleHandler(
  handler: HandlerName,
  options: { readonly outDir: string; readonly registryFile: string; readonly tracing?: boolean },
): Promise<BundleReport> {
  const file = path.join(options.outDir, `${handler}.mjs`);
  const result = await build({
    ...esbuildOptions(options.tracing === true),
    entryPoints: [path.join(REPO_ROOT, 'functions', HANDLERS[handler].entry)],
    alias: { [BUNDLE_IMPORT]: options.registryFile },
    outfile: file,
    metafile: true,
  });
  const output = Object.values(result.metafile?.outputs ?? {})[0];
  if (!output) throw new Error(`esbuild wrote no bundle for ${handler}`);
  const awsClients = [
    ...new Set(
      output.imports.filter((i) => i.external && i.path.startsWith('@aws-sdk/')).map((i) => i.path),
    ),
  ].sort();
  const referenceFile = path.join(options.outDir, `${handler}.reference.mjs`);
  const referenceBytes = await bundleReference(awsClients, referenceFile, options.outDir);
  return {
    handler,
    file,
    bytes: output.bytes,
    referenceFile,
    referenceBytes,
    budgetBytes: referenceBytes + HANDLERS[handler].allowanceBytes,
    inputs: inputsBySource(output),
    files: Object.keys(output.inputs).sort(),
    awsClients,
  };
}

/** Why a bundle is over its budget, naming its biggest inputs; undefined when it is within. */
export function overBudget(report: BundleReport, shown = 8): string | undefined {
  if (report.bytes <= report.budgetBytes) return undefined;
  const biggest = report.inputs
    .slice(0, shown)
    .map((input) => `${input.name} ${kb(input.bytes)}`)
    .join(', ');
  return `the ${report.handler} bundle is ${kb(report.bytes)}, over its budget of ${kb(report.budgetBytes)} (reference ${kb(report.referenceBytes)} + ${kb(HANDLERS[report.handler].allowanceBytes)}); its biggest inputs: ${biggest}`;
}

function esbuildOptions(tracing: boolean): BuildOptions {
  return {
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: BUNDLE_SETTINGS.target,
    mainFields: [...BUNDLE_SETTINGS.mainFields],
    banner: { js: BUNDLE_SETTINGS.banner },
    minify: true,
    external: [...BUNDLE_SETTINGS.external],
    define: bundleDefines(tracing),
    absWorkingDir: REPO_ROOT,
    logLevel: 'error',
  };
}

async function bundleReference(
  awsClients: readonly string[],
  outfile: string,
  outDir: string,
): Promise<number> {
  const entry = path.join(outDir, `${path.basename(outfile, '.mjs')}.entry.mjs`);
  await writeFile(entry, awsClients.map((client) => `import '${client}';\n`).join(''));
  const result = await build({
    ...esbuildOptions(false),
    entryPoints: [entry],
    outfile,
    metafile: true,
  });
  return Object.values(result.metafile?.outputs ?? {})[0]?.bytes ?? 0;
}

/** The bytes each package (or each top folder of ours) adds to the output, biggest first. */
function inputsBySource(output: Metafile['outputs'][string]): BundleInput[] {
  const bytes = new Map<string, number>();
  for (const [file, input] of Object.entries(output.inputs)) {
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1];
    const name = pkg ?? file.split('/').slice(0, 2).join('/');
    bytes.set(name, (bytes.get(name) ?? 0) + input.bytesInOutput);
  }
  return [...bytes]
    .map(([name, size]) => ({ name, bytes: size }))
    .sort((a, b) => b.bytes - a.bytes);
}

function kb(bytes: number): string {
  return `${(bytes / KB).toFixed(1)} KB`;
}
