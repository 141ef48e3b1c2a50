import { execFile, execFileSync } from 'node:child_process';
import { symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { buildSync } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BundleReport,
  buildHandler,
  bundleHandler,
  esbuildOptions,
  HANDLERS,
  type HandlerName,
  overBudget,
  REPO_ROOT,
} from '../../infra/handlerBundles.js';
import { generateAssistantBundle } from '../../src/build/index.js';
import { BANK_PROJECT } from '../helpers/e2eProject.js';
import { startTestMcpServer, type TestMcpServer } from '../helpers/mcpTestServer.js';
import { modulesLoaded } from '../helpers/modulesLoaded.js';
import { writeProject } from '../helpers/project.js';
import { ScriptedOpenAi } from '../helpers/scriptedOpenAi.js';
import { tempDir } from '../helpers/tempDirs.js';

/** What a function that only takes requests and queues jobs must not carry. */
const NOT_ON_THE_HTTP_SIDE = [
  'yaml',
  'peggy',
  'nunjucks',
  'aws-xray-sdk-core',
  'openai',
  '@modelcontextprotocol/sdk',
  '@grpc/grpc-js',
  'protobufjs',
  'ajv',
];

/** Settings a deployed function reads; importing a bundle only builds clients, it calls nothing. */
const FUNCTION_ENV = {
  TABLE_NAME: 'switchboard-test',
  JOBS_QUEUE_URL: 'http://127.0.0.1:9/queue/jobs.fifo',
  DELAY_QUEUE_URL: 'http://127.0.0.1:9/queue/delayed',
  SECRET_PREFIX: 'switchboard/',
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'test',
  AWS_SECRET_ACCESS_KEY: 'test',
  AWS_EC2_METADATA_DISABLED: 'true',
  POWERTOOLS_LOG_LEVEL: 'ERROR',
};

/**
 * The files of a bundle a fresh Node process loads when it imports the bundle's `index.mjs`, as
 * the Lambda runtime does on a cold start (a module hook writes down each one).
 */
async function filesLoaded(bundleDir: string): Promise<string[]> {
  const entry = pathToFileURL(path.join(bundleDir, 'index.mjs')).href;
  const { urls } = await modulesLoaded(
    ['--input-type=module', '-e', `await import(${JSON.stringify(entry)});`],
    { env: FUNCTION_ENV },
  );
  const prefix = pathToFileURL(bundleDir).href;
  return urls.filter((url) => url.startsWith(prefix)).map((url) => url.slice(prefix.length + 1));
}

/** The chunks of a build that hold `file` (a path in node_modules), by file name. */
function chunksHolding(metafile: ReturnType<typeof buildHandler>, file: string): string[] {
  return Object.entries(metafile.outputs)
    .filter(([, output]) => Object.keys(output.inputs).some((input) => input.endsWith(file)))
    .map(([output]) => path.basename(output));
}

describe('the handler bundles of the example assistant', () => {
  const reports = new Map<HandlerName, BundleReport>();
  let outDir: string;

  // Five esbuild builds and their references: seconds on an idle machine.
  beforeAll(async () => {
    outDir = await tempDir('switchboard-budgets-');
    // The AWS SDK is left to the runtime: a bundle imported here finds it in our node_modules.
    await symlink(path.join(REPO_ROOT, 'node_modules'), path.join(outDir, 'node_modules'));
    const { registryFile } = await generateAssistantBundle(
      REPO_ROOT,
      undefined,
      path.join(outDir, 'assistant'),
    );
    for (const handler of Object.keys(HANDLERS) as HandlerName[]) {
      reports.set(handler, await bundleHandler(handler, { outDir, registryFile }));
    }
  });

  it('each stay within their budget: the reference bundle of their AWS SDK clients plus an allowance', () => {
    expect(reports.size).toBe(Object.keys(HANDLERS).length);
    expect([...reports.values()].map((report) => overBudget(report)).filter(Boolean)).toEqual([]);
    for (const report of reports.values()) {
      // The reference holds nothing but the imports of the clients, which the runtime provides.
      expect(report.awsClients.length).toBeGreaterThan(0);
      expect(report.referenceBytes).toBeLessThan(1024);
    }
  });

  it('leave the dialogue engine, templates, YAML, the grammar compiler, X-Ray and the agent SDKs out of the webhook, the push receiver and the delay function', () => {
    for (const handler of ['webhook', 'a2aPush', 'delay'] as const) {
      const report = reports.get(handler);
      const inputs = report?.inputs.map((input) => input.name) ?? [];
      expect(inputs.filter((name) => NOT_ON_THE_HTTP_SIDE.includes(name))).toEqual([]);
      const files = report?.files ?? [];
      expect(
        files.filter((file) => /^src\/(dialogue\/engine|prompts|agents|mcp|llm)\b/.test(file)),
      ).toEqual([]);
      expect(files.filter((file) => file.startsWith('src/assistant/conditions/'))).toEqual([]);
    }
  });

  it("leave the project's flows and modules, the dialogue engine and the A2A 0.3 transport out of what the A2A server loads", () => {
    const server = reports.get('a2aServer');
    const files = server?.files ?? [];
    // The card's name and skills come from the build, not from the registry of the project.
    expect(files.filter((file) => /(^|\/)(registry\.ts|custom\/)/.test(file))).toEqual([]);
    expect(files.some((file) => file.endsWith('/a2aServer.ts') && file.includes('assistant'))).toBe(
      true,
    );
    expect(
      files.filter((file) => /^src\/(dialogue\/engine|prompts|agents|mcp|llm|a2a\/)/.test(file)),
    ).toEqual([]);
    const legacy = (file: string) => file.includes('@a2a-js/sdk/dist/compat/v0_3/');
    expect(files.filter(legacy)).toEqual([]);
    expect(server?.onDemandFiles.some(legacy)).toBe(true);
  });

  it('each load in a fresh process, as on a cold start', () => {
    for (const report of reports.values()) {
      const script = `globalThis.awslambda = { streamifyResponse: (handler) => handler }; await import(${JSON.stringify(pathToFileURL(report.file).href)});`;
      execFileSync(process.execPath, ['--input-type=module', '-e', script], {
        env: { ...process.env, ...FUNCTION_ENV },
      });
    }
  });

  it('name the biggest inputs of a bundle over its budget', () => {
    const webhook = reports.get('webhook');
    if (!webhook) throw new Error('no webhook bundle');
    const message = overBudget({ ...webhook, budgetBytes: 1000 }, 3);
    const biggest = webhook.inputs.slice(0, 3).map((input) => input.name);
    expect(message).toMatch(/^the webhook bundle is [\d.]+ KB, over its budget of 1\.0 KB/);
    for (const name of biggest) expect(message).toContain(name);
    expect(overBudget(webhook)).toBeUndefined();
  });

  it('keep gRPC out of what the worker loads: it comes in only for an A2A agent that offers nothing else', () => {
    const worker = reports.get('worker');
    const grpc = (file: string) => /node_modules\/(@grpc\/grpc-js|protobufjs)\//.test(file);
    expect(worker?.files.filter(grpc)).toEqual([]);
    expect(worker?.onDemandFiles.some(grpc)).toBe(true);
    expect(worker?.onDemandBytes).toBeGreaterThan(0);
  });

  it('load neither the A2A client nor the MCP client when a worker starts, whether its assistant has A2A agents or not', async () => {
    const a2aChunks = (metafile: ReturnType<typeof buildHandler>) =>
      chunksHolding(metafile, '@a2a-js/sdk/dist/client/index.js');
    const loadedNames = async (dir: string) =>
      (await filesLoaded(dir)).map((f) => path.basename(f));

    const example = path.join(outDir, 'example-worker');
    const exampleRegistry = path.join(outDir, 'assistant', 'registry.ts');
    const exampleBuild = buildHandler('worker', { outDir: example, registryFile: exampleRegistry });
    const exampleChunks = a2aChunks(exampleBuild);
    // The MCP client, with the SDK's schemas, loads at the first request to an MCP server.
    const mcpChunks = chunksHolding(
      exampleBuild,
      '@modelcontextprotocol/sdk/dist/esm/client/index.js',
    );
    expect(exampleChunks.length).toBeGreaterThan(0);
    expect(mcpChunks.length).toBeGreaterThan(0);
    // Its first A2A step imports them.
    const exampleLoaded = await loadedNames(example);
    expect(exampleLoaded).toContain('index.mjs');
    expect(exampleLoaded.filter((file) => exampleChunks.includes(file))).toEqual([]);
    expect(exampleLoaded.filter((file) => mcpChunks.includes(file))).toEqual([]);
    for (const chunk of [...exampleChunks, ...mcpChunks]) {
      const url = pathToFileURL(path.join(example, 'chunks', chunk)).href;
      execFileSync(process.execPath, ['--input-type=module', '-e', `await import('${url}');`], {
        env: { ...process.env, ...FUNCTION_ENV },
      });
    }

    const bank = await writeProject(BANK_PROJECT);
    const { registryFile } = await generateAssistantBundle(
      bank,
      undefined,
      path.join(outDir, 'bank'),
    );
    const withoutAgents = path.join(outDir, 'bank-worker');
    const bankChunks = a2aChunks(buildHandler('worker', { outDir: withoutAgents, registryFile }));
    expect(bankChunks.length).toBeGreaterThan(0);
    const loaded = await loadedNames(withoutAgents);
    expect(loaded).toContain('index.mjs');
    expect(loaded.filter((file) => bankChunks.includes(file))).toEqual([]);
  });
});

describe('a bundle built with the handlers’ settings', () => {
  let mcp: TestMcpServer;
  let llm: ScriptedOpenAi;
  beforeAll(async () => {
    mcp = await startTestMcpServer();
    llm = await ScriptedOpenAi.start();
  });
  afterAll(async () => {
    await mcp?.close();
    await llm?.close();
  });

  it('checks MCP tool results against their output schema and asks the model without the libraries it leaves out', async () => {
    const dir = await tempDir('switchboard-bundled-clients-');
    const entry = path.join(dir, 'entry.ts');
    await writeFile(
      entry,
      `import { OnDemandConnection } from ${JSON.stringify(path.join(REPO_ROOT, 'src/mcp/index.ts'))};
import { OpenAiChatModel } from ${JSON.stringify(path.join(REPO_ROOT, 'src/llm/index.ts'))};
const [mcpUrl, llmUrl] = process.argv.slice(2);
const connection = new OnDemandConnection({
  server: { name: 'calculator', url: mcpUrl, type: 'http' },
  auth: { headers: async () => ({}), renew: () => false, redact: (text) => text },
});
const tools = (await connection.listTools()).map((tool) => tool.name);
const sum = await connection.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
await connection.close();
const model = new OpenAiChatModel({ model: 'scripted', baseURL: llmUrl, apiKey: 'sk-x' });
const answer = await model.complete({ messages: [{ role: 'user', content: 'hi' }] });
process.stdout.write(JSON.stringify({ tools, sum: sum.structuredContent, answer: answer.content }));
`,
    );
    // Split into chunks as the worker is: the MCP client is a chunk of its own.
    const outfile = path.join(dir, 'out', 'entry.mjs');
    const built = buildSync({
      ...esbuildOptions(false),
      entryPoints: [entry],
      outdir: path.join(dir, 'out'),
      splitting: true,
      outExtension: { '.js': '.mjs' },
      metafile: true,
    });
    const inputs = Object.keys(built.metafile?.inputs ?? {});
    llm.reply('hello from the model');

    const { stdout } = await promisify(execFile)(process.execPath, [outfile, mcp.url, llm.url]);

    expect(inputs.filter((file) => /node_modules\/(ajv|ajv-formats|openai)\//.test(file))).toEqual(
      [],
    );
    expect(JSON.parse(stdout)).toEqual({
      tools: expect.arrayContaining(['add', 'echo']),
      sum: { sum: 5 },
      answer: 'hello from the model',
    });
  });
});
