import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type BundleReport,
  bundleHandler,
  HANDLERS,
  type HandlerName,
  overBudget,
  REPO_ROOT,
} from '../../infra/handlerBundles.js';
import { generateAssistantBundle } from '../../src/build/index.js';
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

describe('the handler bundles of the example assistant', () => {
  const reports = new Map<HandlerName, BundleReport>();

  // Five esbuild builds and their references: seconds on an idle machine.
  beforeAll(async () => {
    const outDir = await tempDir('switchboard-budgets-');
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

  it('name the biggest inputs of a bundle over its budget', () => {
    const webhook = reports.get('webhook');
    if (!webhook) throw new Error('no webhook bundle');
    const message = overBudget({ ...webhook, budgetBytes: 1000 }, 3);
    const biggest = webhook.inputs.slice(0, 3).map((input) => input.name);
    expect(message).toMatch(/^the webhook bundle is [\d.]+ KB, over its budget of 1\.0 KB/);
    for (const name of biggest) expect(message).toContain(name);
    expect(overBudget(webhook)).toBeUndefined();
  });
});
