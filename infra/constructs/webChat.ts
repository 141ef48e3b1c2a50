import { Duration } from 'aws-cdk-lib';
import type { IAlarmAction } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { WEB_CHAT_STREAM_PATH } from '../../src/channels/webChat.js';
import { HandlerFunction } from './handlerFunction.js';
import { secretReadStatement } from './secretAccess.js';
import { StreamingEndpoint } from './streamingEndpoint.js';

/** How long a web chat stream may take: streams end a minute earlier, and the client reconnects. */
export const WEB_CHAT_TIMEOUT = Duration.minutes(5);
/** Steady stream requests per second, and the burst above it. */
export const WEB_CHAT_THROTTLE = { rateLimit: 20, burstLimit: 40 } as const;

export interface WebChatProps {
  /** The environment every function gets (table, queues, secret prefix, ttl). */
  readonly environment: Readonly<Record<string, string>>;
  readonly table: ITableV2;
  /** The REST token's secret, which guards the stream as it guards the REST channel. */
  readonly restTokenSecret?: string;
  readonly logRetention: RetentionDays;
  readonly alarmAction: IAlarmAction;
  /** Active X-Ray tracing (see `HandlerFunctionProps.tracing`). */
  readonly tracing: boolean;
}

/**
 * The web chat's stream (credentials.yml's `socketio`): a function behind a REST API route with
 * response streaming that reads a conversation's events (and nothing else) from the table. The
 * messages a browser posts go to the webhook function's `POST /webhooks/socketio/webhook`.
 */
export class WebChat extends Construct {
  readonly function: HandlerFunction;
  readonly endpoint: StreamingEndpoint;

  constructor(scope: Construct, id: string, props: WebChatProps) {
    super(scope, id);
    this.function = new HandlerFunction(this, 'Function', {
      handler: 'webChat',
      description: 'Switchboard web chat: the bot messages of a conversation, streamed',
      timeout: WEB_CHAT_TIMEOUT,
      logRetention: props.logRetention,
      alarmAction: props.alarmAction,
      tracing: props.tracing,
      environment: {
        ...props.environment,
        STREAM_LIMIT_MS: String(WEB_CHAT_TIMEOUT.toMilliseconds() - 60_000),
        ...(props.restTokenSecret ? { REST_TOKEN_SECRET: props.restTokenSecret } : {}),
      },
    });
    const role = this.function.role;
    props.table.grant(role, 'dynamodb:GetItem', 'dynamodb:Query');
    if (props.restTokenSecret) {
      role.addToPrincipalPolicy(secretReadStatement(this, [props.restTokenSecret]));
    }
    this.endpoint = new StreamingEndpoint(this, 'Endpoint', {
      description: 'Switchboard web chat: /webhooks/socketio/stream/{sender}, streamed',
      handler: this.function.function,
      routes: [{ path: WEB_CHAT_STREAM_PATH, method: 'GET' }],
      timeout: WEB_CHAT_TIMEOUT,
      logRetention: props.logRetention,
      throttle: WEB_CHAT_THROTTLE,
    });
  }
}
