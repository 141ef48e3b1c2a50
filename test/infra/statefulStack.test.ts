import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../infra/app.js';
import { StatefulStack } from '../../infra/statefulStack.js';

describe('StatefulStack', () => {
  let stack: StatefulStack;
  let template: Template;

  // Constructing the stack takes seconds on a busy machine, more than vitest's default hook time.
  beforeAll(() => {
    stack = new StatefulStack(new App(), 'State');
    template = Template.fromStack(stack);
  }, 60_000);

  it('keeps conversations in one table with point-in-time recovery and expiry', () => {
    template.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      BillingMode: 'PAY_PER_REQUEST',
      TimeToLiveSpecification: { AttributeName: 'ttl', Enabled: true },
      Replicas: [
        Match.objectLike({
          PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
          DeletionProtectionEnabled: true,
        }),
      ],
    });
    template.hasResource('AWS::DynamoDB::GlobalTable', { DeletionPolicy: 'Retain' });
  });

  it('queues jobs in a FIFO queue without content deduplication, with a FIFO dead-letter queue', () => {
    template.hasResourceProperties('AWS::SQS::Queue', {
      FifoQueue: true,
      ContentBasedDeduplication: false,
      VisibilityTimeout: 360,
      RedrivePolicy: { maxReceiveCount: 5, deadLetterTargetArn: Match.anyValue() },
    });
    const fifo = template.findResources('AWS::SQS::Queue', { Properties: { FifoQueue: true } });
    expect(Object.keys(fifo)).toHaveLength(2);
  });

  it('has a standard queue for delayed jobs, with its own dead-letter queue', () => {
    const standard = template.findResources('AWS::SQS::Queue', {
      Properties: { FifoQueue: Match.absent() },
    });
    expect(Object.keys(standard)).toHaveLength(2);
    template.hasResourceProperties('AWS::SQS::Queue', {
      FifoQueue: Match.absent(),
      RedrivePolicy: Match.objectLike({ maxReceiveCount: 5 }),
    });
  });

  it('encrypts every queue and refuses plain HTTP', () => {
    const queues = template.findResources('AWS::SQS::Queue');
    for (const queue of Object.values(queues)) {
      expect(queue.Properties.SqsManagedSseEnabled).toBe(true);
    }
    template.resourceCountIs('AWS::SQS::QueuePolicy', 4);
  });

  it('alarms as soon as a job reaches a dead-letter queue', () => {
    template.resourceCountIs('AWS::CloudWatch::Alarm', 2);
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Threshold: 0,
      ComparisonOperator: 'GreaterThanThreshold',
    });
  });

  it('passes the AWS Solutions checks', () => {
    const report = new AwsSolutionsChecks(stack).validateScope(stack);
    expect(report.violations).toEqual([]);
  });

  it('synthesizes the whole app offline, state first', async () => {
    const tmp = process.env.TMPDIR ?? '/tmp';
    const app = await buildApp(new App({ outdir: `${tmp}/switchboard-cdk-${process.pid}` }), {
      bundleDir: `${tmp}/switchboard-bundle-${process.pid}`,
    });
    const assembly = app.synth();
    expect(assembly.stacks.map((s) => s.stackName)).toEqual([
      'SwitchboardState',
      'SwitchboardRuntime',
    ]);
  });
});
