import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { Assistant } from '../src/assistant/index.js';
import {
  AssistantBundleError,
  a2aServerSecretNames,
  deployedSecretNames,
  generateAssistantBundle,
} from '../src/build/index.js';
import { resolveProjectPaths } from '../src/config/index.js';
import { InvalidContextError, readDeploySettings } from './context.js';
import { StatefulStack } from './statefulStack.js';
import { StatelessStack } from './statelessStack.js';

/**
 * Where the app's assistant bundle is generated: `.switchboard/` where synth runs (the project's
 * folder, or this repository's root), never inside an installed package.
 */
const BUNDLE_DIR = '.switchboard';

const CROSS_STACK_REFERENCES = '@aws-cdk/core:defaultCrossStackReferences';

export interface BuildAppOptions {
  /** The assistant project (default: the `project` context value, else the working folder). */
  readonly projectDir?: string;
  /** Where the assistant bundle is written (default `.switchboard/` in the working folder). */
  readonly bundleDir?: string;
}

/**
 * The CDK app (`npx cdk synth` / `npx cdk deploy --all`): generates the assistant bundle, then
 * the stateful stack (table, queues, alarm topic) and the stateless one (functions, HTTP API).
 * Context: `project`, `subAgents`, `config`, `endpoints`, `domain`, `data` (comma-separated),
 * `secretPrefix`, `authenticate` (`false` opens the REST
 * routes), and the validated `workerConcurrency`, `webhookConcurrency`,
 * `reserveWebhookConcurrency` and `alarmEmail` (see context.ts). cdk-nag's AWS Solutions checks
 * run in synth.
 */
export async function buildApp(app: App = new App(), options: BuildAppOptions = {}): Promise<App> {
  const context = (key: string): string | undefined => {
    const value = app.node.tryGetContext(key);
    return value === undefined || value === null ? undefined : String(value);
  };
  // Before the bundle: a bad value fails at once, not after the project is loaded.
  const settings = readDeploySettings(app.node);
  const projectDir = path.resolve(options.projectDir ?? context('project') ?? '.');
  const bundle = await generateAssistantBundle(
    projectDir,
    context('subAgents'),
    path.resolve(options.bundleDir ?? BUNDLE_DIR),
    resolveProjectPaths(projectDir, {
      config: context('config'),
      endpoints: context('endpoints'),
      domain: context('domain'),
      data: context('data')?.split(','),
    }),
  );

  // Strong references: the state stack refuses to drop an output the runtime stack still imports.
  if (app.node.tryGetContext(CROSS_STACK_REFERENCES) === undefined) {
    app.node.setContext(CROSS_STACK_REFERENCES, 'strong');
  }
  const state = new StatefulStack(app, 'SwitchboardState', {
    description: 'Switchboard: conversation table, job queues and alarm topic',
    ...(settings.alarmEmail === undefined ? {} : { alarmEmail: settings.alarmEmail }),
  });
  const secretPrefix = context('secretPrefix');
  new StatelessStack(app, 'SwitchboardRuntime', {
    description: 'Switchboard: functions, HTTP API, A2A server and alarms',
    table: state.table,
    jobsQueue: state.queues.jobs,
    delayQueue: state.queues.delayed,
    registryFile: bundle.registryFile,
    secretNames: deployedSecretNames(bundle.assistant),
    authenticate: context('authenticate') !== 'false',
    alarmAction: state.alarms.action,
    concurrency: settings,
    tracing: settings.tracing,
    ...(hasA2AAgents(bundle.assistant) || bundle.assistant.a2aServer
      ? { pushKey: state.pushKey }
      : {}),
    a2aAgents: hasA2AAgents(bundle.assistant),
    ...(bundle.assistant.a2aServer
      ? { a2aServer: { secretNames: a2aServerSecretNames(bundle.assistant) } }
      : {}),
    ...(secretPrefix === undefined ? {} : { secretPrefix }),
    ...(bundle.assistant.channels ? { channels: bundle.assistant.channels } : {}),
  });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return app;
}

function hasA2AAgents(assistant: Assistant): boolean {
  return Object.values(assistant.agents).some((agent) => agent.protocol === 'A2A');
}

/**
 * Why synth cannot go on, as `switchboard validate` says it: each problem of the project as
 * `FILE:LINE:COL: message` (the file relative to `cwd`), then a summary; undefined for a failure
 * that is not the project's or the context's (it keeps its stack).
 */
export function synthFailureLines(error: unknown, cwd: string): string[] | undefined {
  if (error instanceof InvalidContextError) return [`cdk synth: ${error.message}`];
  if (!(error instanceof AssistantBundleError)) return undefined;
  const lines = error.diagnostics.map((diagnostic) => {
    const located = /^([^:\n]+):(\d+):(\d+): /.exec(diagnostic);
    if (!located?.[1]) return diagnostic;
    const file = path.relative(cwd, path.resolve(error.projectDir, located[1])) || located[1];
    return `${file}${diagnostic.slice(located[1].length)}`;
  });
  return [
    ...lines,
    `${error.diagnostics.length} error(s) in ${path.relative(cwd, error.projectDir) || '.'}; nothing was synthesized`,
  ];
}

const entry = process.argv[1];
if (entry && import.meta.url === pathToFileURL(path.resolve(entry)).href) {
  try {
    (await buildApp()).synth();
  } catch (error) {
    const lines = synthFailureLines(error, process.cwd());
    if (!lines) throw error;
    process.stderr.write(`${lines.join('\n')}\n`);
    process.exitCode = 1;
  }
}
