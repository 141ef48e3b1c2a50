import { Duration } from 'aws-cdk-lib';
import type { IAlarmAction } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { HandlerFunction } from './handlerFunction.js';
import { secretReadStatement } from './secretAccess.js';
import { StreamingEndpoint } from './streamingEndpoint.js';

/** How long an A2A request (a stream, at most) may take: streams end a minute earlier. */
export const A2A_SERVER_TIMEOUT = Duration.minutes(5);
/** Steady A2A requests per second, and the burst above it. */
export const A2A_SERVER_THROTTLE = { rateLimit: 10, burstLimit: 20 } as const;

export interface A2AServerProps {
  /** The environment every function gets (table, queues, secret prefix, ttl). */
  readonly environment: Readonly<Record<string, string>>;
  readonly table: ITableV2;
  readonly jobsQueue: IQueue;
  readonly delayQueue: IQueue;
  readonly registryFile: string;
  readonly secretPrefix: string;
  /** The secrets `a2a_server.auth` names, without the prefix. */
  readonly secretNames: readonly string[];
  /** The REST token's secret, which guards the routes when `a2a_server.auth` is absent. */
  readonly restTokenSecret?: string;
  /** The key push notification credentials are sealed with. */
  readonly pushKey: ISecret;
  readonly logRetention: RetentionDays;
  readonly alarmAction: IAlarmAction;
  /** Active X-Ray tracing (see `HandlerFunctionProps.tracing`). */
  readonly tracing: boolean;
}

/**
 * The assistant as an A2A agent: the A2A server function (the project bundled, as the card and
 * the callers' check need it) behind a REST API whose routes stream, with what it may touch:
 * tasks, message claims and open contexts in the table, both job queues (a turn, a task's deadline), the push
 * key, the secrets of `a2a_server.auth` and the REST token.
 */
export class A2AServer extends Construct {
  readonly function: HandlerFunction;
  readonly endpoint: StreamingEndpoint;

  constructor(scope: Construct, id: string, props: A2AServerProps) {
    super(scope, id);
    this.function = new HandlerFunction(this, 'Function', {
      handler: 'a2aServer',
      description: 'Switchboard A2A server: agent card and JSON-RPC, streamed',
      timeout: A2A_SERVER_TIMEOUT,
      logRetention: props.logRetention,
      alarmAction: props.alarmAction,
      tracing: props.tracing,
      registryFile: props.registryFile,
      environment: {
        ...props.environment,
        REPLY_WAIT_MS: '20000',
        A2A_PUSH_KEY_SECRET: props.pushKey.secretArn,
        ...(props.restTokenSecret ? { REST_TOKEN_SECRET: props.restTokenSecret } : {}),
      },
    });
    const role = this.function.role;
    props.table.grant(
      role,
      'dynamodb:GetItem',
      'dynamodb:PutItem',
      'dynamodb:Query',
      // The slots of open contexts (a counter) and the markers of closed ones (max_contexts).
      'dynamodb:UpdateItem',
      'dynamodb:DeleteItem',
    );
    props.jobsQueue.grantSendMessages(role);
    props.delayQueue.grantSendMessages(role);
    props.pushKey.grantRead(role);
    const names = [
      ...props.secretNames.map((name) => `${props.secretPrefix}${name}`),
      ...(props.restTokenSecret ? [props.restTokenSecret] : []),
    ];
    if (names.length > 0) role.addToPrincipalPolicy(secretReadStatement(this, names));
    this.endpoint = new StreamingEndpoint(this, 'Endpoint', {
      description: 'Switchboard A2A server: /.well-known/agent-card.json and /a2a, streamed',
      handler: this.function.function,
      routes: [
        { path: '/.well-known/agent-card.json', method: 'GET' },
        { path: '/a2a', method: 'POST' },
      ],
      timeout: A2A_SERVER_TIMEOUT,
      logRetention: props.logRetention,
      throttle: A2A_SERVER_THROTTLE,
    });
  }
}
