import { Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { AttributeType, Billing, TableEncryptionV2, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { acknowledgePushKeyRotation } from './acknowledgements.js';
import { AlarmTopic } from './constructs/alarmTopic.js';
import { JobQueues } from './constructs/jobQueues.js';

/** Attribute names of the conversation table. */
export const TABLE_KEYS = { partition: 'pk', sort: 'sk', expiry: 'ttl' } as const;

export interface StatefulStackProps extends StackProps {
  /** Keep the table and queues when the stack is deleted (default: true). */
  readonly retainData?: boolean;
  /** Subscribe this address to the alarm topic by email. */
  readonly alarmEmail?: string;
}

/**
 * What outlives a deployment: the conversation table, the job queues, the alarm topic and the key
 * of A2A push tokens. Kept
 * apart from the functions so that redeploying code never touches data or confirmed subscriptions.
 */
export class StatefulStack extends Stack {
  readonly table: TableV2;
  readonly queues: JobQueues;
  readonly alarms: AlarmTopic;
  readonly pushKey: Secret;

  constructor(scope: Construct, id: string, props: StatefulStackProps = {}) {
    super(scope, id, props);
    const removalPolicy = props.retainData === false ? RemovalPolicy.DESTROY : RemovalPolicy.RETAIN;

    this.table = new TableV2(this, 'Conversations', {
      partitionKey: { name: TABLE_KEYS.partition, type: AttributeType.STRING },
      sortKey: { name: TABLE_KEYS.sort, type: AttributeType.STRING },
      billing: Billing.onDemand(),
      encryption: TableEncryptionV2.awsManagedKey(),
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute: TABLE_KEYS.expiry,
      deletionProtection: props.retainData !== false,
      removalPolicy,
    });

    // Here rather than with the functions: an email subscription is confirmed by a person, and a
    // topic recreated with the runtime would silently lose it.
    this.alarms = new AlarmTopic(this, 'Alarms', {
      ...(props.alarmEmail === undefined ? {} : { email: props.alarmEmail }),
    });
    this.queues = new JobQueues(this, 'Queues', {
      // Six times the worker's timeout, as AWS recommends for Lambda event sources.
      visibilityTimeout: Duration.minutes(6),
      maxReceiveCount: 5,
      alarmAction: this.alarms.action,
    });

    // Here because A2A agents hold tokens derived from it for as long as their tasks run: a key
    // recreated with the runtime would make every running task's notifications fail.
    this.pushKey = new Secret(this, 'A2APushKey', {
      description: 'Switchboard: the key A2A push notification tokens are derived from',
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
      removalPolicy,
    });
    acknowledgePushKeyRotation(this.pushKey);
  }
}
