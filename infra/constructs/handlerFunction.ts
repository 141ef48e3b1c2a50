import path from 'node:path';
import { AssetHashType, DockerImage, Duration, RemovalPolicy } from 'aws-cdk-lib';
import type { IAlarmAction } from 'aws-cdk-lib/aws-cloudwatch';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import {
  ApplicationLogLevel,
  Architecture,
  Code,
  Function as LambdaFunction,
  LoggingFormat,
  Runtime,
  SystemLogLevel,
  Tracing,
} from 'aws-cdk-lib/aws-lambda';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { buildHandler, HANDLERS, type HandlerName, REPO_ROOT } from '../handlerBundles.js';

export interface HandlerFunctionProps {
  /** Which handler it runs (its entry under `functions/`, see `HANDLERS`). */
  readonly handler: HandlerName;
  readonly description: string;
  readonly timeout: Duration;
  readonly environment: Readonly<Record<string, string>>;
  /** How long its logs are kept. */
  readonly logRetention: RetentionDays;
  /**
   * The generated registry the bundle's `@switchboard/bundle` import resolves to, if it uses one;
   * `@switchboard/a2a-server` resolves to the `a2aServer.ts` the build writes beside it.
   */
  readonly registryFile?: string;
  /** Where its error alarm notifies. */
  readonly alarmAction: IAlarmAction;
  /** Executions reserved for it, which also caps it (default: none, it shares the account's pool). */
  readonly reservedConcurrentExecutions?: number;
  /**
   * Active X-Ray tracing. The bundle is built for it: without tracing, the build sets
   * `SWITCHBOARD_TRACING` to "false" as a constant and the X-Ray code is left out.
   */
  readonly tracing: boolean;
}

/**
 * A Switchboard Lambda function with the shared defaults: Node 22 on ARM, an ESM bundle built by
 * the local esbuild with `buildHandler` (minified and split into chunks that load when used, with
 * source maps, the AWS SDK left to the runtime), JSON logs in a
 * log group with retention, X-Ray tracing when asked for, its own role, and an alarm on errors.
 */
export class HandlerFunction extends Construct {
  readonly function: LambdaFunction;
  readonly role: Role;
  readonly logGroup: LogGroup;
  readonly errorsAlarm: Alarm;

  constructor(scope: Construct, id: string, props: HandlerFunctionProps) {
    super(scope, id);
    this.logGroup = new LogGroup(this, 'Logs', {
      retention: props.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    // Our own role: only this log group, instead of the managed basic-execution policy (logs:* on every group).
    this.role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `Runs the Switchboard ${id} function`,
    });
    this.logGroup.grantWrite(this.role);

    this.function = new LambdaFunction(this, 'Function', {
      code: handlerCode(props),
      handler: 'index.handler',
      description: props.description,
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: HANDLERS[props.handler].memoryMb,
      timeout: props.timeout,
      role: this.role,
      logGroup: this.logGroup,
      loggingFormat: LoggingFormat.JSON,
      applicationLogLevelV2: ApplicationLogLevel.INFO,
      systemLogLevelV2: SystemLogLevel.WARN,
      tracing: props.tracing ? Tracing.ACTIVE : Tracing.DISABLED,
      ...(props.reservedConcurrentExecutions === undefined
        ? {}
        : { reservedConcurrentExecutions: props.reservedConcurrentExecutions }),
      environment: {
        ...props.environment,
        NODE_OPTIONS: '--enable-source-maps',
        POWERTOOLS_SERVICE_NAME: 'switchboard',
        POWERTOOLS_METRICS_NAMESPACE: 'Switchboard',
        SWITCHBOARD_TRACING: String(props.tracing),
      },
    });

    this.errorsAlarm = new Alarm(this, 'ErrorsAlarm', {
      alarmDescription: `The Switchboard ${id} function failed`,
      metric: this.function.metricErrors({ period: Duration.minutes(1), statistic: 'Sum' }),
      threshold: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    this.errorsAlarm.addAlarmAction(props.alarmAction);
  }
}

/**
 * The function's code: its bundle, built on this machine when the stack is synthesized (never in
 * a container), and hashed by its output so that an unchanged bundle is not uploaded again.
 */
function handlerCode(props: HandlerFunctionProps): Code {
  return Code.fromAsset(path.join(REPO_ROOT, 'functions'), {
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      // Required by CDK's types; never pulled, since the local build either succeeds or throws.
      image: DockerImage.fromRegistry('switchboard-bundles-build-locally'),
      // What the build depends on besides the sources: CDK reuses a bundle within a process when
      // its options are the same, so they name the handler, the project and the tracing switch.
      environment: {
        SWITCHBOARD_HANDLER: props.handler,
        SWITCHBOARD_REGISTRY: props.registryFile ?? '',
        SWITCHBOARD_TRACING: String(props.tracing),
      },
      local: {
        tryBundle(outputDir: string): boolean {
          buildHandler(props.handler, {
            outDir: outputDir,
            ...(props.registryFile ? { registryFile: props.registryFile } : {}),
            tracing: props.tracing,
            sourceMaps: true,
          });
          return true;
        },
      },
    },
  });
}
