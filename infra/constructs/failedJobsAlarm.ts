import { Duration } from 'aws-cdk-lib';
import {
  Alarm,
  ComparisonOperator,
  type IAlarmAction,
  Metric,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { Construct } from 'constructs';

/**
 * An alarm on the worker's `JobsFailed` metric: a failed job is a batch item failure, which the
 * function's own error count never shows.
 */
export class FailedJobsAlarm extends Construct {
  readonly alarm: Alarm;

  constructor(scope: Construct, id: string, alarmAction: IAlarmAction) {
    super(scope, id);
    this.alarm = new Alarm(this, 'Alarm', {
      alarmDescription: 'Switchboard jobs failed and wait for SQS to deliver them again',
      metric: new Metric({
        namespace: 'Switchboard',
        metricName: 'JobsFailed',
        dimensionsMap: { service: 'switchboard' },
        statistic: 'Sum',
        period: Duration.minutes(5),
      }),
      threshold: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    this.alarm.addAlarmAction(alarmAction);
  }
}
