import { Match, type Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  actionsOf,
  admittedAtOnce,
  type Built,
  build,
  bundleCode,
  eventSourceOf,
  FUNCTIONS,
  functionProps,
  handlerOf,
  logicalId,
  MAX_BUNDLE_BYTES,
  readsAndQueuesJobs,
  secretArn,
  statementsOf,
  throttleOf,
  XRAY_MARK,
} from './stackTemplates.js';

describe('StatelessStack', () => {
  let built: Built;
  let template: Template;

  // Synthesis bundles three functions with esbuild: seconds on an idle machine, more on a busy one.
  beforeAll(async () => {
    built = await build();
    template = built.template;
  });

  it('runs every handler on Node.js 22 on ARM, with JSON logs and no tracing unless asked for', async () => {
    template.resourcePropertiesCountIs(
      'AWS::Lambda::Function',
      {
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        TracingConfig: Match.absent(),
        LoggingConfig: Match.objectLike({ LogFormat: 'JSON' }),
        Environment: { Variables: Match.objectLike({ SWITCHBOARD_TRACING: 'false' }) },
      },
      5,
    );
    // Without tracing, no bundle carries the X-Ray SDK.
    for (const name of Object.keys(FUNCTIONS) as (keyof typeof FUNCTIONS)[]) {
      expect((await bundleCode(built, name)).code).not.toContain(XRAY_MARK);
    }
  });

  it('gives the functions the table, the queues, the secret prefix and their settings', () => {
    const common = {
      TABLE_NAME: { 'Fn::ImportValue': Match.stringLikeRegexp('Conversations') },
      JOBS_QUEUE_URL: { 'Fn::ImportValue': Match.stringLikeRegexp('QueuesJobs') },
      DELAY_QUEUE_URL: { 'Fn::ImportValue': Match.stringLikeRegexp('QueuesDelayed') },
      SECRET_PREFIX: 'switchboard/',
      CONVERSATION_TTL_DAYS: '30',
    };
    template.hasResourceProperties('AWS::Lambda::Function', {
      Description: Match.stringLikeRegexp('HTTP contract'),
      Environment: {
        Variables: Match.objectLike({
          ...common,
          REPLY_WAIT_MS: Match.stringLikeRegexp('^\\d+$'),
          REST_TOKEN_SECRET: 'switchboard/SWITCHBOARD_REST_TOKEN',
        }),
      },
    });
    const pushKey = { 'Fn::ImportValue': Match.stringLikeRegexp('A2APushKey') };
    template.hasResourceProperties('AWS::Lambda::Function', {
      Description: Match.stringLikeRegexp('worker'),
      Timeout: 60,
      MemorySize: 1024,
      Environment: {
        Variables: Match.objectLike({
          ...common,
          A2A_PUSH_KEY_SECRET: pushKey,
          A2A_PUSH_BASE_URL: Match.objectLike({ 'Fn::Join': Match.anyValue() }),
        }),
      },
    });
    template.hasResourceProperties('AWS::Lambda::Function', {
      Description: Match.stringLikeRegexp('A2A push receiver'),
      Environment: {
        Variables: Match.objectLike({ ...common, A2A_PUSH_KEY_SECRET: pushKey }),
      },
    });
    template.hasResourceProperties('AWS::Lambda::Function', {
      Description: Match.stringLikeRegexp('delay'),
      Environment: { Variables: Match.objectLike(common) },
    });
  });

  it('answers a webhook before API Gateway gives up on it at 30 s, replies waited for included', () => {
    const webhook = functionProps(built, 'Webhook');
    const timeoutMs = Number(webhook.Timeout) * 1000;
    expect(timeoutMs).toBeLessThan(30_000);
    const env = webhook.Environment as { Variables: Record<string, string> };
    expect(Number(env.Variables.REPLY_WAIT_MS)).toBeLessThan(timeoutMs);
  });

  it('hides a received job for at least six times the timeout of the function that runs it', () => {
    // AWS's advice for Lambda event sources: a job must not come back while a run of it may go on.
    const queues = Object.values(
      built.stateTemplate.findResources('AWS::SQS::Queue', {
        Properties: { RedrivePolicy: Match.anyValue() },
      }),
    ).map((q) => q.Properties);
    const jobs = queues.find((q) => q.FifoQueue === true);
    const delayed = queues.find((q) => q.FifoQueue === undefined);
    for (const [queue, consumer] of [
      [jobs, 'Worker'],
      [delayed, 'Delay'],
    ] as const) {
      expect(queue?.VisibilityTimeout).toBeGreaterThanOrEqual(
        6 * Number(functionProps(built, consumer).Timeout),
      );
    }
  });

  it('feeds the worker from the FIFO queue and the delay function from the delay queue, reporting failed items', () => {
    const sources = [
      ['Worker', 'QueuesJobs', 1],
      ['Delay', 'QueuesDelayed', 10],
    ] as const;
    for (const [name, queue, batchSize] of sources) {
      template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
        FunctionName: { Ref: logicalId(built.stack, handlerOf(built, name).function) },
        EventSourceArn: { 'Fn::ImportValue': Match.stringLikeRegexp(queue) },
        BatchSize: batchSize,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
      });
    }
    template.resourceCountIs('AWS::Lambda::EventSourceMapping', 2);
  });

  it('routes the HTTP contract to the webhook function, with throttling and JSON access logs', () => {
    const routes = template.findResources('AWS::ApiGatewayV2::Route');
    expect(
      Object.values(routes)
        .map((r) => r.Properties.RouteKey)
        .sort(),
    ).toEqual([
      'GET /conversations/{sender}/tracker',
      'GET /health',
      'GET /version',
      'HEAD /conversations/{sender}/tracker',
      'HEAD /health',
      'HEAD /version',
      'POST /a2a/push/{sender}/{run}',
      'POST /webhooks/rest/webhook',
    ]);
    template.hasResourceProperties('AWS::ApiGatewayV2::Integration', {
      IntegrationUri: {
        'Fn::GetAtt': [logicalId(built.stack, handlerOf(built, 'A2APush').function), 'Arn'],
      },
    });
    template.hasResourceProperties('AWS::ApiGatewayV2::Integration', {
      IntegrationType: 'AWS_PROXY',
      PayloadFormatVersion: '2.0',
      IntegrationUri: {
        'Fn::GetAtt': [logicalId(built.stack, built.stack.webhook.function), 'Arn'],
      },
    });
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: {
        ThrottlingRateLimit: Match.anyValue(),
        ThrottlingBurstLimit: Match.anyValue(),
      },
      AccessLogSettings: {
        DestinationArn: {
          'Fn::GetAtt': [logicalId(built.stack, built.stack.endpoint.accessLogs), 'Arn'],
        },
        Format: Match.stringLikeRegexp('"requestId":"\\$context.requestId"'),
      },
    });
    template.hasOutput('ApiUrl', {});
  });

  it('grants the webhook only reads, the job queue and its token', () => {
    const statements = statementsOf(built, 'Webhook');
    expect(actionsOf(statements)).not.toContain('dynamodb:PutItem');
    expect(statements).toEqual(
      expect.arrayContaining([
        ...readsAndQueuesJobs,
        expect.objectContaining({
          Action: expect.arrayContaining(['secretsmanager:GetSecretValue']),
          Resource: secretArn('switchboard/SWITCHBOARD_REST_TOKEN'),
        }),
      ]),
    );
    expect(JSON.stringify(statements)).not.toMatch(/QueuesDelayed/);
  });

  it('grants the worker the table, both queues and exactly the secrets the project names', () => {
    const statements = statementsOf(built, 'Worker');
    expect(statements).toEqual(
      expect.arrayContaining([
        {
          Effect: 'Allow',
          Action: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
          Resource: { 'Fn::ImportValue': expect.stringMatching(/Conversations.*Arn/) },
        },
        {
          Effect: 'Allow',
          Action: 'secretsmanager:GetSecretValue',
          Resource: [
            'BOOKING_CLIENT_SECRET',
            'CAR_CATALOG_API_KEY',
            'DEALER_DIRECTORY_API_KEY',
            'FINANCING_TOKEN',
            'OPENAI_API_KEY',
            'SHOPPING_AGENT_API_KEY',
          ].map((name) => secretArn(`switchboard/${name}`)),
        },
      ]),
    );
    for (const queue of [/QueuesJobs.*Arn/, /QueuesDelayed.*Arn/]) {
      expect(statements).toContainEqual(
        expect.objectContaining({
          Action: expect.arrayContaining(['sqs:SendMessage']),
          Resource: { 'Fn::ImportValue': expect.stringMatching(queue) },
        }),
      );
    }
  });

  it('grants the A2A push receiver reads, the job queue and the push key, which the worker reads too', () => {
    const statements = statementsOf(built, 'A2APush');
    expect(actionsOf(statements)).not.toContain('dynamodb:PutItem');
    expect(JSON.stringify(statements)).not.toMatch(/QueuesDelayed|switchboard\//);
    const readsPushKey = expect.objectContaining({
      Action: expect.arrayContaining(['secretsmanager:GetSecretValue']),
      Resource: { 'Fn::ImportValue': expect.stringMatching(/A2APushKey/) },
    });
    expect(statements).toEqual(expect.arrayContaining([...readsAndQueuesJobs, readsPushKey]));
    expect(statementsOf(built, 'Worker')).toContainEqual(readsPushKey);
    expect(JSON.stringify(statementsOf(built, 'Webhook'))).not.toMatch(/A2APushKey/);
  });

  it('serves the A2A server behind a REST API whose two routes stream, throttled and access-logged', () => {
    const fn = logicalId(built.stack, handlerOf(built, 'A2AServer').function);
    const methods = template.findResources('AWS::ApiGateway::Method');
    expect(
      Object.values(methods)
        .map((m) => m.Properties.HttpMethod)
        .sort(),
    ).toEqual(['GET', 'POST']);
    for (const method of Object.values(methods)) {
      expect(method.Properties.Integration).toMatchObject({
        Type: 'AWS_PROXY',
        ResponseTransferMode: 'STREAM',
        TimeoutInMillis: 300_000,
        Uri: {
          'Fn::Join': [
            '',
            expect.arrayContaining([
              ':lambda:path/2021-11-15/functions/',
              { 'Fn::GetAtt': [fn, 'Arn'] },
              '/response-streaming-invocations',
            ]),
          ],
        },
      });
    }
    const paths = Object.values(template.findResources('AWS::ApiGateway::Resource')).map(
      (r) => r.Properties.PathPart,
    );
    expect(paths.sort()).toEqual(['.well-known', 'a2a', 'agent-card.json']);
    template.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: 'stream',
      AccessLogSetting: Match.objectLike({ Format: Match.stringLikeRegexp('requestId') }),
      MethodSettings: [Match.objectLike({ ThrottlingRateLimit: 10, ThrottlingBurstLimit: 20 })],
    });
    expect(functionProps(built, 'A2AServer').Timeout).toBe(300);
    template.hasOutput('A2AUrl', Match.anyValue());
  });

  it('grants the A2A server tasks in the table, both queues, the push key and the REST token', () => {
    const statements = statementsOf(built, 'A2AServer');
    expect(statements).toEqual(
      expect.arrayContaining([
        {
          Effect: 'Allow',
          Action: [
            'dynamodb:GetItem',
            'dynamodb:PutItem',
            'dynamodb:Query',
            'dynamodb:UpdateItem',
            'dynamodb:DeleteItem',
          ],
          Resource: { 'Fn::ImportValue': expect.stringMatching(/Conversations.*Arn/) },
        },
        expect.objectContaining({
          Action: expect.arrayContaining(['secretsmanager:GetSecretValue']),
          Resource: { 'Fn::ImportValue': expect.stringMatching(/A2APushKey/) },
        }),
        {
          Effect: 'Allow',
          Action: 'secretsmanager:GetSecretValue',
          Resource: secretArn('switchboard/SWITCHBOARD_REST_TOKEN'),
        },
      ]),
    );
    for (const queue of [/QueuesJobs.*Arn/, /QueuesDelayed.*Arn/]) {
      expect(statements).toContainEqual(
        expect.objectContaining({
          Action: expect.arrayContaining(['sqs:SendMessage']),
          Resource: { 'Fn::ImportValue': expect.stringMatching(queue) },
        }),
      );
    }
  });

  it('generates the push key in the stateful stack, kept when the stack is deleted', () => {
    built.stateTemplate.hasResource('AWS::SecretsManager::Secret', {
      Properties: { GenerateSecretString: Match.objectLike({ PasswordLength: 48 }) },
      DeletionPolicy: 'Retain',
    });
  });

  it('gives no function a wildcard resource', () => {
    for (const name of Object.keys(FUNCTIONS) as (keyof typeof FUNCTIONS)[]) {
      expect(statementsOf(built, name).filter((s) => s.Resource === '*')).toEqual([]);
    }
    template.resourceCountIs('AWS::IAM::ManagedPolicy', 0);
    template.allResourcesProperties('AWS::IAM::Role', { ManagedPolicyArns: Match.absent() });
  });

  it('keeps every log group for a month', () => {
    // One per function, and the access logs of both APIs.
    template.resourcePropertiesCountIs('AWS::Logs::LogGroup', { RetentionInDays: 30 }, 7);
    template.resourceCountIs('AWS::Logs::LogGroup', 7);
  });

  it("alarms on each function's errors and on failed jobs", () => {
    template.resourcePropertiesCountIs(
      'AWS::CloudWatch::Alarm',
      { Namespace: 'AWS/Lambda', MetricName: 'Errors', Threshold: 1 },
      5,
    );
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'Switchboard',
      MetricName: 'JobsFailed',
    });
  });

  it("notifies the stateful stack's alarm topic from every alarm", () => {
    const topic = Object.keys(built.stateTemplate.findResources('AWS::SNS::Topic'));
    expect(topic).toHaveLength(1);
    const outputs = Object.values(
      built.stateTemplate.findOutputs('*', { Value: { Ref: topic[0] } }),
    );
    expect(outputs).toHaveLength(1);
    const exportName = outputs[0]?.Export?.Name;
    expect(exportName).toEqual(expect.any(String));
    const alarms = Object.values(template.findResources('AWS::CloudWatch::Alarm'));
    expect(alarms).toHaveLength(6);
    for (const alarm of alarms) {
      expect(alarm.Properties.AlarmActions).toEqual([{ 'Fn::ImportValue': exportName }]);
    }
  });

  it('runs at most 20 workers at once by default', () => {
    expect(eventSourceOf(built, 'Worker').ScalingConfig).toEqual({ MaximumConcurrency: 20 });
  });

  it('caps the delay function so that it cannot crowd out the worker', () => {
    const delay = eventSourceOf(built, 'Delay').ScalingConfig as { MaximumConcurrency: number };
    const worker = eventSourceOf(built, 'Worker').ScalingConfig as { MaximumConcurrency: number };
    expect(delay.MaximumConcurrency).toBeLessThan(worker.MaximumConcurrency);
  });

  it('reserves 100 executions for the webhook by default', () => {
    expect(functionProps(built, 'Webhook').ReservedConcurrentExecutions).toBe(100);
    for (const name of ['Worker', 'Delay', 'A2APush'] as const) {
      expect(functionProps(built, name).ReservedConcurrentExecutions).toBeUndefined();
    }
  });

  it("throttles the API so that requests held until the timeout never exceed the webhook's executions", () => {
    const { rate, burst } = throttleOf(built);
    expect(Math.min(rate, burst)).toBeGreaterThan(0);
    expect(admittedAtOnce(built)).toBeLessThanOrEqual(
      Number(functionProps(built, 'Webhook').ReservedConcurrentExecutions),
    );
  });

  it('passes the AWS Solutions checks, each acknowledgement with a reason', () => {
    const report = new AwsSolutionsChecks(built.stack).validateScope(built.stack);
    expect(report.violations).toEqual([]);
    const reasons = built.stack.node
      .findAll()
      .flatMap((c) => c.node.metadata)
      .filter((m) => m.type === 'aws:cdk:acknowledged-rules')
      .flatMap((m) => Object.values(m.data as Record<string, string>));
    expect(reasons.length).toBeGreaterThan(0);
    for (const reason of reasons) expect(reason.length).toBeGreaterThan(40);
  });

  it('bundles each handler into ESM, index.mjs and its chunks; only the worker and the A2A server carry the project', async () => {
    for (const name of Object.keys(FUNCTIONS) as (keyof typeof FUNCTIONS)[]) {
      const { code, bytes, files } = await bundleCode(built, name);
      expect(files).toContain('index.mjs');
      expect(bytes).toBeLessThan(MAX_BUNDLE_BYTES);
      expect(code).toContain('createRequire');
      // The example's call-time hook, reached only through the generated registry.
      expect(code.includes('demo-dealership')).toBe(name === 'Worker');
      // The project itself (the A2A card's description), without its extension modules.
      expect(code.includes('Finds cars in the catalog')).toBe(
        name === 'Worker' || name === 'A2AServer',
      );
    }
  });
});
