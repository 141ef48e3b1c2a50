import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { App } from 'aws-cdk-lib';
import { Match } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildApp, synthFailureLines } from '../../infra/app.js';
import { InvalidContextError } from '../../infra/context.js';
import { REPO_ROOT } from '../../infra/handlerBundles.js';
import { BASE_PROJECT, writeProject } from '../helpers/project.js';
import { tempDir } from '../helpers/tempDirs.js';
import {
  actionsOf,
  admittedAtOnce,
  type Built,
  build,
  bundleCode,
  eventSourceOf,
  functionProps,
  secretArn,
  statementsOf,
  throttleOf,
  XRAY_MARK,
} from './stackTemplates.js';

describe('the CDK app context', () => {
  let built: Built;

  beforeAll(async () => {
    const project = await writeProject({
      ...BASE_PROJECT,
      'endpoints.yml': `${BASE_PROJECT['endpoints.yml']}    conversation_secret:
      secret_id: customers/{sender_id}
      metadata:
        x-customer-id: id
`,
      'custom/actions.ts':
        "export function action_mark() {\n  return { slots: { name: 'context-marker' } };\n}\n",
    });
    built = await build({
      project,
      secretPrefix: 'acme/',
      authenticate: 'false',
      workerConcurrency: '50',
      webhookConcurrency: '200',
      tracing: 'true',
    });
  });

  it('bundles the project the context names and reads its secrets under the given prefix', async () => {
    expect((await bundleCode(built, 'Worker')).code).toContain('context-marker');
    expect(statementsOf(built, 'Worker')).toContainEqual({
      Effect: 'Allow',
      Action: 'secretsmanager:GetSecretValue',
      Resource: [secretArn('acme/OPENAI_API_KEY'), secretArn('acme/customers/*')],
    });
  });

  it('traces every function with X-Ray when tracing is on, granting X-Ray alone on any resource', async () => {
    built.template.resourcePropertiesCountIs(
      'AWS::Lambda::Function',
      {
        TracingConfig: { Mode: 'Active' },
        Environment: { Variables: Match.objectLike({ SWITCHBOARD_TRACING: 'true' }) },
      },
      3,
    );
    for (const name of ['Webhook', 'Worker', 'Delay'] as const) {
      expect((await bundleCode(built, name)).code).toContain(XRAY_MARK);
      const wildcard = statementsOf(built, name).filter((s) => s.Resource === '*');
      expect(actionsOf(wildcard)).toEqual(['xray:PutTelemetryRecords', 'xray:PutTraceSegments']);
    }
  });

  it('lets the worker read per-conversation secrets by their pattern, and passes the AWS Solutions checks', () => {
    const report = new AwsSolutionsChecks(built.stack).validateScope(built.stack);
    expect(report.violations).toEqual([]);
  });

  it('adds no A2A push receiver for a project without A2A agents', () => {
    expect(built.stack.a2aPush).toBeUndefined();
    const routes = Object.values(built.template.findResources('AWS::ApiGatewayV2::Route'));
    expect(routes.map((r) => r.Properties.RouteKey)).not.toContain('POST /a2a/push/{sender}/{run}');
    built.template.allResourcesProperties('AWS::Lambda::Function', {
      Environment: { Variables: Match.objectLike({ A2A_PUSH_KEY_SECRET: Match.absent() }) },
    });
  });

  it('opens the REST routes only when asked to', () => {
    built.template.allResourcesProperties('AWS::Lambda::Function', {
      Environment: { Variables: Match.objectLike({ REST_TOKEN_SECRET: Match.absent() }) },
    });
    expect(JSON.stringify(statementsOf(built, 'Webhook'))).not.toContain('secretsmanager');
  });

  it('runs as many workers at once as workerConcurrency says', () => {
    expect(eventSourceOf(built, 'Worker').ScalingConfig).toEqual({ MaximumConcurrency: 50 });
  });

  it('reserves the webhookConcurrency for the webhook and sizes the API throttle to it', () => {
    expect(functionProps(built, 'Webhook').ReservedConcurrentExecutions).toBe(200);
    expect(throttleOf(built)).toEqual({ rate: 5, burst: 55 });
    expect(admittedAtOnce(built)).toBeLessThanOrEqual(200);
  });
});

describe('the CDK app without a webhook reservation', () => {
  let built: Built;

  // Only the templates are read: the functions are not bundled. Values typed as in cdk.json.
  beforeAll(async () => {
    built = await build(
      { reserveWebhookConcurrency: false, webhookConcurrency: 60, workerConcurrency: 2 },
      { bundle: false },
    );
  });

  it('reserves nothing when reserveWebhookConcurrency is false, and still bounds the webhook by the throttle', () => {
    expect(functionProps(built, 'Webhook').ReservedConcurrentExecutions).toBeUndefined();
    expect(throttleOf(built)).toEqual({ rate: 1, burst: 31 });
    expect(admittedAtOnce(built)).toBeLessThanOrEqual(60);
  });

  it('reads numbers from cdk.json as well as strings from -c', () => {
    expect(eventSourceOf(built, 'Worker').ScalingConfig).toEqual({ MaximumConcurrency: 2 });
  });

  it('passes the AWS Solutions checks without a reservation', () => {
    const report = new AwsSolutionsChecks(built.stack).validateScope(built.stack);
    expect(report.violations).toEqual([]);
  });
});

describe('the CDK app context values', () => {
  it.each([
    [{ workerConcurrency: '1' }, /workerConcurrency must be an integer from 2 to 1000.*got "1"/],
    [{ workerConcurrency: '1001' }, /workerConcurrency must be an integer from 2 to 1000/],
    [{ workerConcurrency: '2.5' }, /workerConcurrency must be an integer/],
    [{ workerConcurrency: 'many' }, /workerConcurrency must be an integer.*got "many"/],
    [{ webhookConcurrency: '33' }, /webhookConcurrency must be an integer from 34 to 10000/],
    [{ webhookConcurrency: '' }, /webhookConcurrency must be an integer/],
    [{ reserveWebhookConcurrency: 'no' }, /reserveWebhookConcurrency must be true or false/],
    [{ alarmEmail: 'ops' }, /alarmEmail must be one email address.*got "ops"/],
    [{ alarmEmail: 'a@example.com,b@example.com' }, /alarmEmail must be one email address/],
  ])('refuses %o with a message naming the key', async (context, message) => {
    const bundleDir = await tempDir('switchboard-bundle-');
    const outdir = await tempDir('switchboard-cdk-');
    await expect(buildApp(new App({ outdir, context }), { bundleDir })).rejects.toThrow(message);
  });
});

describe('cdk synth of a project that does not load', () => {
  it('prints each problem as FILE:LINE:COL once and a summary, without a stack, and exits 1', async () => {
    const dir = await writeProject({
      ...BASE_PROJECT,
      'data/broken.yml':
        'flows:\n  broken:\n    description: x\n    steps:\n      - collect: no_such_slot\n',
    });
    const out = await tempDir('switchboard-synth-failure-');

    const result = spawnSync(
      process.execPath,
      ['--import', 'tsx', path.join(REPO_ROOT, 'infra/app.ts')],
      {
        cwd: REPO_ROOT,
        env: {
          ...process.env,
          CDK_CONTEXT_JSON: JSON.stringify({ project: dir }),
          CDK_OUTDIR: out,
        },
        encoding: 'utf8',
      },
    );

    const file = path.relative(REPO_ROOT, path.join(dir, 'data/broken.yml'));
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([
      `${file}:5:18: flows.broken.steps[0].collect names slot "no_such_slot", which the domain does not define`,
      `1 error(s) in ${path.relative(REPO_ROOT, dir)}; nothing was synthesized`,
    ]);
  }, 60_000);

  it('names a context value it cannot deploy with, without a stack', () => {
    expect(synthFailureLines(new Error('boom'), REPO_ROOT)).toBeUndefined();
    expect(
      synthFailureLines(new InvalidContextError('workerConcurrency', 'x', 'a whole number'), '/'),
    ).toEqual(['cdk synth: Context workerConcurrency must be a whole number, got "x"']);
  });
});
