import { Duration } from 'aws-cdk-lib';
import type { IAlarmAction } from 'aws-cdk-lib/aws-cloudwatch';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import {
  DeduplicationScope,
  FifoThroughputLimit,
  Queue,
  QueueEncryption,
} from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

export interface JobQueuesProps {
  /** How long a worker may hold a job before it becomes visible again. */
  readonly visibilityTimeout: Duration;
  /** Deliveries of one job before it moves to its dead-letter queue. */
  readonly maxReceiveCount: number;
  /** Where DLQ alarms notify. */
  readonly alarmAction: IAlarmAction;
}

/**
 * The job queues: a FIFO queue (one message group per conversation, deduplication by job id)
 * and a standard queue for delayed jobs, each with a dead-letter queue and an alarm on it. The
 * FIFO queue is in high-throughput mode (deduplication and the throughput limit per message
 * group), so only a conversation's own order bounds it, not a limit for the whole queue.
 */
export class JobQueues extends Construct {
  readonly jobs: Queue;
  readonly jobsDeadLetters: Queue;
  readonly delayed: Queue;
  readonly delayedDeadLetters: Queue;

  constructor(scope: Construct, id: string, props: JobQueuesProps) {
    super(scope, id);
    const secure = { encryption: QueueEncryption.SQS_MANAGED, enforceSSL: true };
    const retention = Duration.days(14);

    this.jobsDeadLetters = new Queue(this, 'JobsDeadLetters', {
      ...secure,
      fifo: true,
      retentionPeriod: retention,
    });
    this.jobs = new Queue(this, 'Jobs', {
      ...secure,
      fifo: true,
      contentBasedDeduplication: false,
      deduplicationScope: DeduplicationScope.MESSAGE_GROUP,
      fifoThroughputLimit: FifoThroughputLimit.PER_MESSAGE_GROUP_ID,
      visibilityTimeout: props.visibilityTimeout,
      retentionPeriod: Duration.days(4),
      deadLetterQueue: { queue: this.jobsDeadLetters, maxReceiveCount: props.maxReceiveCount },
    });

    // FIFO queues have no per-message delay: delayed jobs wait here, then move to `jobs`.
    this.delayedDeadLetters = new Queue(this, 'DelayedDeadLetters', {
      ...secure,
      retentionPeriod: retention,
    });
    this.delayed = new Queue(this, 'Delayed', {
      ...secure,
      visibilityTimeout: props.visibilityTimeout,
      retentionPeriod: Duration.days(4),
      deadLetterQueue: { queue: this.delayedDeadLetters, maxReceiveCount: props.maxReceiveCount },
    });

    for (const [name, queue] of [
      ['JobsDeadLettersAlarm', this.jobsDeadLetters],
      ['DelayedDeadLettersAlarm', this.delayedDeadLetters],
    ] as const) {
      const alarm = new Alarm(this, name, {
        alarmDescription: `Jobs reached ${queue.node.id}: a job failed ${props.maxReceiveCount} times`,
        metric: queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1) }),
        threshold: 0,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
      alarm.addAlarmAction(props.alarmAction);
    }
  }
}
