import { ArnFormat, Stack } from 'aws-cdk-lib';
import type { IAlarmAction } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';

export interface AlarmTopicProps {
  /** Subscribe this address by email (AWS sends it a confirmation link first). */
  readonly email?: string;
}

/**
 * The SNS topic every Switchboard alarm notifies, encrypted with a key of its own and open only
 * to this account's CloudWatch alarms, over TLS.
 */
export class AlarmTopic extends Construct {
  readonly topic: Topic;
  readonly key: Key;
  /** The alarm action that publishes to the topic. */
  readonly action: IAlarmAction;

  constructor(scope: Construct, id: string, props: AlarmTopicProps = {}) {
    super(scope, id);
    const cloudwatch = new ServicePrincipal('cloudwatch.amazonaws.com');
    // CloudWatch encrypts what it publishes itself, so the key must let it: the AWS-managed
    // alias/aws/sns key cannot, and alarms on a topic under it fail to notify.
    this.key = new Key(this, 'Key', {
      description: 'Encrypts the Switchboard alarm topic',
      enableKeyRotation: true,
    });
    this.key.addToResourcePolicy(
      new PolicyStatement({
        sid: 'CloudWatchEncryptsAlarms',
        principals: [cloudwatch],
        actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
        resources: ['*'],
      }),
    );
    this.topic = new Topic(this, 'Topic', {
      displayName: 'Switchboard alarms',
      masterKey: this.key,
      enforceSSL: true,
    });
    // The topic policy replaces SNS's default one, which is what lets same-account alarms publish.
    const stack = Stack.of(this);
    this.topic.addToResourcePolicy(
      new PolicyStatement({
        sid: 'AlarmsOfThisAccountPublish',
        principals: [cloudwatch],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: {
          ArnLike: {
            'aws:SourceArn': stack.formatArn({
              service: 'cloudwatch',
              resource: 'alarm',
              resourceName: '*',
              arnFormat: ArnFormat.COLON_RESOURCE_NAME,
            }),
          },
          StringEquals: { 'aws:SourceAccount': stack.account },
        },
      }),
    );
    if (props.email) this.topic.addSubscription(new EmailSubscription(props.email));
    this.action = new SnsAction(this.topic);
  }
}
