/**
 * How the Lambda handlers are bundled, and what each may weigh. `cdk deploy` (through
 * `HandlerFunction`), the size check of the test suite and `npm run bench bundles` all bundle
 * with `buildHandler`, so that the sizes they see are the deployed ones.
 *
 * A bundle is a folder: `index.mjs` and the chunks it imports. Code split off behind a dynamic
 * `import()` loads only when it runs: the A2A client for a project with A2A agents, gRPC for an
 * agent that offers nothing else.
 *
 * A handler's budget is its reference bundle plus an allowance. The reference is built the same
 * way and imports only the AWS SDK clients the handler's bundle imports: those are left to the
 * Lambda runtime, but loading them is part of every cold start, whatever the handler does.
 */
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BuildOptions, buildSync, type Metafile } from 'esbuild';
import { A2A_SERVER_MODULE } from '../src/build/registrySource.js';

/** The repository root: handlers, lock file and tsconfig live here. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The import name the worker reads its generated assistant bundle from (see functions/shared/bundle.d.ts). */
export const BUNDLE_IMPORT = '@switchboard/bundle';
/** The import name of the A2A server's part of it, generated beside the registry. */
export const A2A_SERVER_IMPORT = '@switchboard/a2a-server';

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

/**
 * Packages a bundle holds a stub of: dependencies of our dependencies that Switchboard never
 * calls. The MCP client's default output validator (Ajv, 130 KB) is replaced by a lighter one.
 */
const LEFT_OUT: Readonly<Record<string, string>> = {
  ajv: path.join(REPO_ROOT, 'infra', 'stubs', 'ajv.mjs'),
  'ajv-formats': path.join(REPO_ROOT, 'infra', 'stubs', 'ajv.mjs'),
};

/** The constants a bundle is built with: whether it traces decides whether it holds X-Ray. */
export function bundleDefines(tracing: boolean): Record<string, string> {
  return { [TRACING_SWITCH]: JSON.stringify(String(tracing)) };
}

const KB = 1024;

/**
 * Each handler's entry under `functions/`, how much it may add to its reference bundle, whether
 * it is split into chunks that load when used, and the memory its function is given. Two are
 * split: the worker, which holds code some assistants never run (the A2A client, the MCP client,
 * gRPC), and the A2A server, whose A2A 0.3 transport only 0.3 callers need. A handler that is not
 * split leaves out the code behind a dynamic import it never reaches, where splitting would still
 * write that code's chunks beside it; but esbuild then wraps what such code imports (zod among
 * it) to run when first used, which zod's import cycles do not survive: the other HTTP handlers
 * import no module with a dynamic import, and a test loads every bundle in a fresh process.
 */
export const HANDLERS = {
  webhook: { entry: 'webhook.ts', allowanceBytes: 150 * KB, split: false, memoryMb: 512 },
  a2aPush: { entry: 'a2aPush.ts', allowanceBytes: 150 * KB, split: false, memoryMb: 256 },
  delay: { entry: 'delay.ts', allowanceBytes: 150 * KB, split: false, memoryMb: 256 },
  // 150 KB as the other HTTP handlers, and the A2A SDK's JSON-RPC transport of A2A 1.0 with the
  // protocol's JSON types and errors (73 KB: each of the SDK's entry points holds its own copy of
  // them), and jose (19 KB: the SDK's and the JWT check's). The 0.3 transport loads on demand.
  a2aServer: { entry: 'a2aServer.ts', allowanceBytes: 250 * KB, split: true, memoryMb: 512 },
  webChat: { entry: 'webChat.ts', allowanceBytes: 150 * KB, split: false, memoryMb: 256 },
  // With all three kinds of sub agent, as the example has them.
  worker: { entry: 'worker.ts', allowanceBytes: 900 * KB, split: true, memoryMb: 1024 },
} as const;
export type HandlerName = keyof typeof HANDLERS;

/**
 * Modules that load after the cold start, only when a peer asks for them (an A2A agent whose card
 * offers gRPC alone): the chunks behind their dynamic imports are reported apart from the budget.
 */
export const ON_DEMAND_MODULES: readonly string[] = [
  'src/a2a/grpc.ts',
  // The A2A server's transport of A2A 0.3, for its first 0.3 caller.
  'node_modules/@a2a-js/sdk/dist/compat/v0_3/server/index.js',
];

/** One input of a bundle, by package (or our own folder), with the bytes it adds. */
export interface BundleInput {
  readonly name: string;
  readonly bytes: number;
}

/** A handler bundled: its size and budget, its biggest inputs and the AWS SDK clients it imports. */
export interface BundleReport {
  readonly handler: HandlerName;
  /** The entry file (`index.mjs` in the handler's folder). */
  readonly file: string;
  /** What the handler loads: its entry and every chunk it imports, except the on-demand ones. */
  readonly bytes: number;
  /** The chunks only on-demand modules bring in. */
  readonly onDemandBytes: number;
  readonly referenceFile: string;
  readonly referenceBytes: number;
  readonly budgetBytes: number;
  /** Inputs of what the handler loads, by the bytes they add, biggest first. */
  readonly inputs: readonly BundleInput[];
  /** Every file the handler loads code of, from the repository root. */
  readonly files: readonly string[];
  /** The files of the on-demand chunks. */
  readonly onDemandFiles: readonly string[];
  readonly awsClients: readonly string[];
}

export interface HandlerBuildOptions {
  /** The folder the bundle is written to: `index.mjs` and `chunks/`. */
  readonly outDir: string;
  /** The generated assistant bundle the worker and the A2A server import. */
  readonly registryFile?: string;
  readonly tracing?: boolean;
  /** Source maps without the sources beside each file (deployed bundles have them). */
  readonly sourceMaps?: boolean;
}

/**
 * Bundles a handler into `outDir`, synchronously (CDK's local bundling is synchronous), and
 * returns esbuild's account of it.
 */
export function buildHandler(handler: HandlerName, options: HandlerBuildOptions): Metafile {
  const result = buildSync({
    ...esbuildOptions(
      options.tracing === true,
      options.registryFile
        ? {
            [BUNDLE_IMPORT]: options.registryFile,
            [A2A_SERVER_IMPORT]: path.join(path.dirname(options.registryFile), A2A_SERVER_MODULE),
          }
        : {},
    ),
    entryPoints: { index: path.join(REPO_ROOT, 'functions', HANDLERS[handler].entry) },
    outdir: options.outDir,
    ...(HANDLERS[handler].split ? { splitting: true, chunkNames: 'chunks/[name]-[hash]' } : {}),
    outExtension: { '.js': '.mjs' },
    ...(options.sourceMaps ? { sourcemap: true, sourcesContent: false } : {}),
    metafile: true,
  });
  if (!result.metafile) throw new Error(`esbuild wrote no bundle for ${handler}`);
  return result.metafile;
}

/**
 * Bundles a handler into `<outDir>/<handler>/` and its reference into
 * `<outDir>/<handler>.reference.mjs`, and weighs them.
 */
export async function bundleHandler(
  handler: HandlerName,
  options: { readonly outDir: string; readonly registryFile: string; readonly tracing?: boolean },
): Promise<BundleReport> {
  const dir = path.join(options.outDir, handler);
  rmSync(dir, { recursive: true, force: true });
  const metafile = buildHandler(handler, { ...options, outDir: dir });
  const outputs = Object.entries(metafile.outputs).filter(([file]) => file.endsWith('.mjs'));
  const entry = `functions/${HANDLERS[handler].entry}`;
  const entryFile = outputs.find(([, output]) => output.entryPoint === entry)?.[0];
  if (!entryFile) throw new Error(`esbuild wrote no entry for ${handler}`);
  const loaded = loadedOutputs(metafile, entryFile);
  const counted = outputs.filter(([file]) => loaded.has(file)).map(([, output]) => output);
  const onDemand = outputs.filter(([file]) => !loaded.has(file)).map(([, output]) => output);
  const awsClients = [
    ...new Set(
      counted.flatMap((output) =>
        output.imports
          .filter((i) => i.external && i.path.startsWith('@aws-sdk/'))
          .map((i) => i.path),
      ),
    ),
  ].sort();
  const referenceFile = path.join(options.outDir, `${handler}.reference.mjs`);
  const referenceBytes = bundleReference(awsClients, referenceFile, options.outDir);
  return {
    handler,
    file: path.join(REPO_ROOT, entryFile),
    bytes: sum(counted.map((output) => output.bytes)),
    onDemandBytes: sum(onDemand.map((output) => output.bytes)),
    referenceFile,
    referenceBytes,
    budgetBytes: referenceBytes + HANDLERS[handler].allowanceBytes,
    inputs: inputsBySource(counted),
    files: filesOf(counted),
    onDemandFiles: filesOf(onDemand),
    awsClients,
  };
}

/**
 * The outputs a handler loads: its entry and what it imports, statically or dynamically, except
 * the chunks of on-demand modules (and what only they import).
 */
function loadedOutputs(metafile: Metafile, entryFile: string): Set<string> {
  const loaded = new Set<string>();
  const next = [entryFile];
  for (let file = next.pop(); file !== undefined; file = next.pop()) {
    if (loaded.has(file)) continue;
    loaded.add(file);
    for (const imported of metafile.outputs[file]?.imports ?? []) {
      if (imported.external) continue;
      const target = metafile.outputs[imported.path];
      if (
        imported.kind === 'dynamic-import' &&
        ON_DEMAND_MODULES.includes(target?.entryPoint ?? '')
      ) {
        continue;
      }
      next.push(imported.path);
    }
  }
  return loaded;
}

function filesOf(outputs: readonly Metafile['outputs'][string][]): string[] {
  return [...new Set(outputs.flatMap((output) => Object.keys(output.inputs)))].sort();
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
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

/**
 * The esbuild options every handler bundle (and its reference) is built with; `alias` adds import
 * names to those that resolve elsewhere.
 */
export function esbuildOptions(
  tracing: boolean,
  alias: Readonly<Record<string, string>> = {},
): BuildOptions {
  return {
    alias: { ...LEFT_OUT, ...alias },
    bundle: true,
    platform: 'node',
    // A project's `switchboard/sdk` is the source the handlers are built from: one copy.
    conditions: ['switchboard-source'],
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

function bundleReference(awsClients: readonly string[], outfile: string, outDir: string): number {
  const entry = path.join(outDir, `${path.basename(outfile, '.mjs')}.entry.mjs`);
  writeFileSync(entry, awsClients.map((client) => `import '${client}';\n`).join(''));
  const result = buildSync({
    ...esbuildOptions(false),
    entryPoints: [entry],
    outfile,
    metafile: true,
  });
  return Object.values(result.metafile?.outputs ?? {})[0]?.bytes ?? 0;
}

/** The bytes each package (or each top folder of ours) adds to the output, biggest first. */
function inputsBySource(outputs: readonly Metafile['outputs'][string][]): BundleInput[] {
  const bytes = new Map<string, number>();
  for (const [file, input] of outputs.flatMap((output) => Object.entries(output.inputs))) {
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
