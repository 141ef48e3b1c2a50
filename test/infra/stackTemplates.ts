/** Synthesizing the CDK app and reading its templates, for the infra tests. */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { App, type Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { expect } from 'vitest';
import { buildApp } from '../../infra/app.js';
import { A2AServer } from '../../infra/constructs/a2aServer.js';
import type { HandlerFunction } from '../../infra/constructs/handlerFunction.js';
import { WebChat } from '../../infra/constructs/webChat.js';
import type { StatelessStack } from '../../infra/statelessStack.js';
import { tempDir } from '../helpers/tempDirs.js';

export const MAX_BUNDLE_BYTES = 5 * 1024 * 1024;
/** A setting only the X-Ray SDK reads: a bundle that names it carries the SDK. */
export const XRAY_MARK = 'AWS_XRAY_CONTEXT_MISSING';
export const FUNCTIONS = {
  Webhook: 'webhook',
  Worker: 'worker',
  Delay: 'delay',
  A2APush: 'a2aPush',
  A2AServer: 'a2aServer',
} as const;

/** Functions only some projects have: the web chat's (credentials.yml's `socketio`). */
const OPTIONAL_FUNCTIONS = { WebChat: 'webChat' } as const;
export type FunctionName = keyof typeof FUNCTIONS | keyof typeof OPTIONAL_FUNCTIONS;

export interface Built {
  readonly stack: StatelessStack;
  readonly template: Template;
  readonly stateTemplate: Template;
  readonly outdir: string;
}

/**
 * Builds and synthesizes the app (cdk-nag runs in synth and fails it on any finding). Without
 * `bundle`, the functions are not bundled: for tests that read only the templates.
 */
export async function build(
  context: Record<string, unknown> = {},
  { bundle = true }: { bundle?: boolean } = {},
): Promise<Built> {
  const outdir = await tempDir('switchboard-cdk-');
  const bundleDir = await tempDir('switchboard-bundle-');
  const app = await buildApp(
    new App({
      outdir,
      context: bundle ? context : { ...context, 'aws:cdk:bundling-stacks': [] },
    }),
    { bundleDir },
  );
  const assembly = app.synth();
  const stack = app.node.findChild('SwitchboardRuntime') as StatelessStack;
  const template = Template.fromJSON(assembly.getStackByName('SwitchboardRuntime').template);
  const stateTemplate = Template.fromJSON(assembly.getStackByName('SwitchboardState').template);
  return { stack, template, stateTemplate, outdir };
}

/**
 * A function of the stack (the A2A push receiver exists only for projects with A2A agents, the
 * A2A server only for projects with `a2a_server`).
 */
export function handlerOf(built: Built, name: FunctionName): HandlerFunction {
  const member = built.stack[{ ...FUNCTIONS, ...OPTIONAL_FUNCTIONS }[name]];
  const fn = member instanceof A2AServer || member instanceof WebChat ? member.function : member;
  if (!fn) throw new Error(`the stack has no ${name} function`);
  return fn;
}

/** The event source mapping that feeds a function. */
export function eventSourceOf(built: Built, name: FunctionName): Record<string, unknown> {
  const fn = logicalId(built.stack, handlerOf(built, name).function);
  const mappings = Object.values(
    built.template.findResources('AWS::Lambda::EventSourceMapping', {
      Properties: { FunctionName: { Ref: fn } },
    }),
  );
  expect(mappings).toHaveLength(1);
  return mappings[0]?.Properties;
}

/** The CloudFormation properties of a function. */
export function functionProps(built: Built, name: FunctionName): Record<string, unknown> {
  const id = logicalId(built.stack, handlerOf(built, name).function);
  return built.template.toJSON().Resources[id].Properties;
}

/** The API stage's throttle. */
export function throttleOf(built: Built): { rate: number; burst: number } {
  const stages = Object.values(built.template.findResources('AWS::ApiGatewayV2::Stage'));
  expect(stages).toHaveLength(1);
  const settings = stages[0]?.Properties.DefaultRouteSettings;
  return { rate: settings.ThrottlingRateLimit, burst: settings.ThrottlingBurstLimit };
}

/**
 * The most webhook executions the throttle lets run at once: a token bucket admits at most
 * burst + rate × t requests in any t seconds, and no request outlives the function's timeout.
 */
export function admittedAtOnce(built: Built): number {
  const { rate, burst } = throttleOf(built);
  return burst + rate * Number(functionProps(built, 'Webhook').Timeout);
}

/** The logical id of a construct's CloudFormation resource. */
export const logicalId = (stack: Stack, construct: { node: { defaultChild?: unknown } }): string =>
  stack.getLogicalId(construct.node.defaultChild as never);

/** A function's bundle: its asset directory in the cloud assembly. */
export function bundleDir(built: Built, name: FunctionName): string {
  const id = logicalId(built.stack, handlerOf(built, name).function);
  const fn = built.template.toJSON().Resources[id];
  const key = String(fn.Properties.Code.S3Key).replace(/\.zip$/, '');
  return path.join(built.outdir, `asset.${key}`);
}

/** The code of a function's bundle, `index.mjs` and its chunks, and its size in bytes. */
export async function bundleCode(
  built: Built,
  name: FunctionName,
): Promise<{ readonly code: string; readonly bytes: number; readonly files: readonly string[] }> {
  const dir = bundleDir(built, name);
  const files = (await readdir(dir, { recursive: true }))
    .filter((file) => file.endsWith('.mjs'))
    .sort();
  const texts = await Promise.all(files.map((file) => readFile(path.join(dir, file), 'utf8')));
  return {
    code: texts.join('\n'),
    bytes: texts.reduce((total, text) => total + Buffer.byteLength(text), 0),
    files,
  };
}

/** Every IAM statement of a function's role. */
export function statementsOf(built: Built, name: FunctionName): Record<string, unknown>[] {
  const role = logicalId(built.stack, handlerOf(built, name).role);
  const policies = built.template.findResources('AWS::IAM::Policy', {
    Properties: { Roles: [{ Ref: role }] },
  });
  return Object.values(policies).flatMap((p) => p.Properties.PolicyDocument.Statement);
}

export const actionsOf = (statements: Record<string, unknown>[]): string[] =>
  statements.flatMap((s) => [s.Action].flat() as string[]).sort();

export const secretArn = (name: string) => ({
  'Fn::Join': [
    '',
    [
      'arn:',
      { Ref: 'AWS::Partition' },
      ':secretsmanager:',
      { Ref: 'AWS::Region' },
      ':',
      { Ref: 'AWS::AccountId' },
      `:secret:${name}-??????`,
    ],
  ],
});

/** The grants of a function that reads conversations and queues jobs, and writes nothing. */
export const readsAndQueuesJobs = [
  {
    Effect: 'Allow',
    Action: ['dynamodb:GetItem', 'dynamodb:Query'],
    Resource: { 'Fn::ImportValue': expect.stringMatching(/Conversations.*Arn/) },
  },
  expect.objectContaining({
    Action: expect.arrayContaining(['sqs:SendMessage']),
    Resource: { 'Fn::ImportValue': expect.stringMatching(/QueuesJobs.*Arn/) },
  }),
];
