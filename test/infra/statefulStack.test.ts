import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import type { CloudAssembly } from 'aws-cdk-lib/cx-api';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../infra/app.js';
import { StatefulStack } from '../../infra/statefulStack.js';
import { tempDir } from '../helpers/tempDirs.js';

/** The logical id of the one resource of a type. */
function logicalIdOf(template: Template, type: string): string {
  const ids = Object.keys(template.findResources(type));
  expect(ids).toHaveLength(1);
  return ids[0] as string;
}

describe('StatefulStack', () => {
  let stack: StatefulStack;
  let template: Template;

  // Construction loads aws-cdk-lib: seconds on a busy machine.
  beforeAll(async () => {
    stack = new StatefulStack(new App({ outdir: await tempDir('switchboard-cdk-') }), 'State');
    template = Template.fromStack(stack);
  });

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

  it('queues jobs in a FIFO queue in high-throughput mode without content deduplication, with a FIFO dead-letter queue', () => {
    template.hasResourceProperties('AWS::SQS::Queue', {
      FifoQueue: true,
      ContentBasedDeduplication: false,
      DeduplicationScope: 'messageGroup',
      FifoThroughputLimit: 'perMessageGroupId',
      VisibilityTimeout: Match.anyValue(),
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

  it('notifies the alarm topic from every alarm', () => {
    const topic = logicalIdOf(template, 'AWS::SNS::Topic');
    const alarms = Object.values(template.findResources('AWS::CloudWatch::Alarm'));
    expect(alarms).toHaveLength(2);
    for (const alarm of alarms) expect(alarm.Properties.AlarmActions).toEqual([{ Ref: topic }]);
  });

  it('encrypts the alarm topic with a rotating key of its own that CloudWatch may use', () => {
    const key = logicalIdOf(template, 'AWS::KMS::Key');
    template.hasResourceProperties('AWS::SNS::Topic', {
      KmsMasterKeyId: { 'Fn::GetAtt': [key, 'Arn'] },
    });
    template.hasResourceProperties('AWS::KMS::Key', {
      EnableKeyRotation: true,
      KeyPolicy: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Effect: 'Allow',
            Principal: { Service: 'cloudwatch.amazonaws.com' },
            Action: ['kms:Decrypt', 'kms:GenerateDataKey*'],
          }),
        ]),
      },
    });
  });

  it("lets only this account's alarms publish to the topic, and only over TLS", () => {
    const topic = logicalIdOf(template, 'AWS::SNS::Topic');
    template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      Topics: [{ Ref: topic }],
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Effect: 'Deny',
            Action: 'sns:Publish',
            Condition: { Bool: { 'aws:SecureTransport': 'false' } },
          }),
          Match.objectLike({
            Effect: 'Allow',
            Principal: { Service: 'cloudwatch.amazonaws.com' },
            Action: 'sns:Publish',
            Resource: { Ref: topic },
            Condition: {
              ArnLike: { 'aws:SourceArn': Match.anyValue() },
              StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } },
            },
          }),
        ]),
      },
    });
    const sourceArn = JSON.stringify(template.findResources('AWS::SNS::TopicPolicy'));
    expect(sourceArn).toContain(':cloudwatch:');
    expect(sourceArn).toContain(':alarm:*');
  });

  it('subscribes nobody to the alarm topic unless an email is given', () => {
    template.resourceCountIs('AWS::SNS::Subscription', 0);
  });

  it('passes the AWS Solutions checks', () => {
    const report = new AwsSolutionsChecks(stack).validateScope(stack);
    expect(report.violations).toEqual([]);
  });
});

describe('the CDK app', () => {
  let assembly: CloudAssembly;

  // Only the templates are read: the functions are not bundled (statelessStack.test.ts bundles
  // them in its synthesis of the whole app).
  beforeAll(async () => {
    const app = await buildApp(
      new App({
        outdir: await tempDir('switchboard-cdk-'),
        context: { alarmEmail: 'ops@example.com', 'aws:cdk:bundling-stacks': [] },
      }),
      { bundleDir: await tempDir('switchboard-bundle-') },
    );
    assembly = app.synth();
  });

  it('synthesizes the whole app offline, state first', () => {
    expect(assembly.stacks.map((s) => s.stackName)).toEqual([
      'SwitchboardState',
      'SwitchboardRuntime',
    ]);
  });

  it('subscribes the email the alarmEmail context names to the alarm topic', () => {
    const state = Template.fromJSON(assembly.getStackByName('SwitchboardState').template);
    state.resourceCountIs('AWS::SNS::Subscription', 1);
    state.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'ops@example.com',
      TopicArn: { Ref: logicalIdOf(state, 'AWS::SNS::Topic') },
    });
  });
});
