import { CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import type { IAlarmAction } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { type ISecret, Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import type { ChannelSettings } from '../src/assistant/index.js';
import { channelSecretNames } from '../src/build/index.js';
import { messagingPaths } from '../src/channels/messaging/index.js';
import {
  acknowledgeA2AServerApi,
  acknowledgeConversationSecrets,
  acknowledgeRouteAuthorization,
  acknowledgeRuntimePin,
  acknowledgeTracingWildcard,
  acknowledgeWebChatApi,
} from './acknowledgements.js';
import { A2AServer } from './constructs/a2aServer.js';
import { FailedJobsAlarm } from './constructs/failedJobsAlarm.js';
import { HandlerFunction } from './constructs/handlerFunction.js';
import { HttpEndpoint } from './constructs/httpEndpoint.js';
import { secretReadStatement } from './constructs/secretAccess.js';
import { WebChat } from './constructs/webChat.js';
import type { DeploySettings } from './context.js';
import { WEBHOOK_TIMEOUT, webhookThrottle } from './webhookThrottle.js';

/** Default prefix of every secret the functions read. */
export const DEFAULT_SECRET_PREFIX = 'switchboard/';
/** The REST token's secret, under the prefix. */
export const REST_TOKEN_NAME = 'SWITCHBOARD_REST_TOKEN';
/** Delay functions at once: each moves ten jobs in well under a second, so two keep up. */
export const DELAY_CONCURRENCY = 2;

/** How many executions each function may use at once. */
export type ConcurrencySettings = Pick<
  DeploySettings,
  'workerConcurrency' | 'webhookConcurrency' | 'reserveWebhookConcurrency'
>;

export interface StatelessStackProps extends StackProps {
  /** The conversation table (from the stateful stack). */
  readonly table: ITableV2;
  /** The FIFO job queue the worker consumes. */
  readonly jobsQueue: IQueue;
  /** The standard queue that holds delayed jobs. */
  readonly delayQueue: IQueue;
  /** The generated `registry.ts` of the assistant bundle (src/build). */
  readonly registryFile: string;
  /** The secrets the worker may read, without the prefix (`deployedSecretNames` of the assistant). */
  readonly secretNames: readonly string[];
  /** Secrets are read as `<prefix><NAME>` (default `switchboard/`). */
  readonly secretPrefix?: string;
  /** Require `Authorization: Bearer <token>` on the REST routes, the token in a secret (default true). */
  readonly authenticate?: boolean;
  /** Days a quiet conversation is kept (default 30). */
  readonly conversationTtlDays?: number;
  /** Where every alarm notifies. */
  readonly alarmAction: IAlarmAction;
  /** How many executions each function may use at once. */
  readonly concurrency: ConcurrencySettings;
  /** Trace every function with X-Ray (default false). */
  readonly tracing?: boolean;
  /**
   * The key of A2A push tokens (from the stateful stack): given when the project has A2A agents
   * or serves itself over A2A.
   */
  readonly pushKey?: ISecret;
  /** The project has A2A agents: the push receiver is added, so agents notify instead of being polled. */
  readonly a2aAgents?: boolean;
  /** The project serves itself over A2A (`a2a_server`): the secrets its `auth` names. */
  readonly a2aServer?: { readonly secretNames: readonly string[] };
  /**
   * The messaging channels of credentials.yml: each gets its webhook route, the webhook and the
   * worker their settings, and the webhook read access to the secrets they name.
   */
  readonly channels?: ChannelSettings;
}

/**
 * The code: the webhook, worker and delay functions (and the A2A push receiver when the project
 * has A2A agents), the HTTP API in front of them, the queue subscriptions, least-privilege grants
 * and alarms. Redeploying it never touches data.
 */
export class StatelessStack extends Stack {
  readonly webhook: HandlerFunction;
  readonly worker: HandlerFunction;
  readonly delay: HandlerFunction;
  readonly a2aPush: HandlerFunction | undefined;
  readonly a2aServer: A2AServer | undefined;
  /** The web chat's stream, when credentials.yml has `socketio`. */
  readonly webChat: WebChat | undefined;
  readonly endpoint: HttpEndpoint;

  constructor(scope: Construct, id: string, props: StatelessStackProps) {
    super(scope, id, props);
    const prefix = props.secretPrefix ?? DEFAULT_SECRET_PREFIX;
    const restTokenSecret =
      props.authenticate === false ? undefined : `${prefix}${REST_TOKEN_NAME}`;
    const logRetention = RetentionDays.ONE_MONTH;
    const tracing = props.tracing === true;
    const common = { logRetention, alarmAction: props.alarmAction, tracing };
    const environment = {
      TABLE_NAME: props.table.tableName,
      JOBS_QUEUE_URL: props.jobsQueue.queueUrl,
      DELAY_QUEUE_URL: props.delayQueue.queueUrl,
      SECRET_PREFIX: prefix,
      CONVERSATION_TTL_DAYS: String(props.conversationTtlDays ?? 30),
    };

    const channelPaths = messagingPaths(props.channels);
    // The worker sends the channels' replies, the webhook checks their requests.
    const channelsEnvironment: Record<string, string> =
      channelPaths.length > 0 ? { CHANNELS: JSON.stringify(props.channels) } : {};

    this.webhook = new HandlerFunction(this, 'Webhook', {
      ...common,
      handler: 'webhook',
      description: 'Switchboard HTTP contract: health, version, REST channel, tracker',
      timeout: WEBHOOK_TIMEOUT,
      // Each REST request holds an execution while it waits for the reply: without a bound, a
      // burst of requests takes the account's executions and the worker, throttled, never settles
      // the turns they wait for. The reservation keeps that many for the webhook and caps it
      // there; the throttle below turns the excess into 429s at the API, not failed invocations.
      ...(props.concurrency.reserveWebhookConcurrency
        ? { reservedConcurrentExecutions: props.concurrency.webhookConcurrency }
        : {}),
      environment: {
        ...environment,
        ...channelsEnvironment,
        REPLY_WAIT_MS: '20000',
        ...(restTokenSecret ? { REST_TOKEN_SECRET: restTokenSecret } : {}),
      },
    });
    this.worker = new HandlerFunction(this, 'Worker', {
      ...common,
      handler: 'worker',
      description: 'Switchboard worker: runs one job per message of the FIFO queue',
      timeout: Duration.seconds(60),
      environment: {
        ...environment,
        ...channelsEnvironment,
        ...(props.pushKey ? { A2A_PUSH_KEY_SECRET: props.pushKey.secretArn } : {}),
      },
      registryFile: props.registryFile,
    });
    this.delay = new HandlerFunction(this, 'Delay', {
      ...common,
      handler: 'delay',
      description: 'Switchboard delay: moves due jobs from the delay queue to the FIFO queue',
      timeout: Duration.seconds(30),
      environment,
    });
    this.a2aPush =
      props.pushKey && props.a2aAgents
        ? new HandlerFunction(this, 'A2APush', {
            ...common,
            handler: 'a2aPush',
            description: 'Switchboard A2A push receiver: queues notifications of running tasks',
            timeout: Duration.seconds(10),
            environment: { ...environment, A2A_PUSH_KEY_SECRET: props.pushKey.secretArn },
          })
        : undefined;
    this.a2aServer =
      props.pushKey && props.a2aServer
        ? new A2AServer(this, 'A2AServer', {
            environment,
            table: props.table,
            jobsQueue: props.jobsQueue,
            delayQueue: props.delayQueue,
            registryFile: props.registryFile,
            secretPrefix: prefix,
            secretNames: props.a2aServer.secretNames,
            ...(restTokenSecret ? { restTokenSecret } : {}),
            pushKey: props.pushKey,
            logRetention,
            alarmAction: props.alarmAction,
            tracing,
          })
        : undefined;

    this.webChat = props.channels?.socketio
      ? new WebChat(this, 'WebChat', {
          environment,
          table: props.table,
          ...(restTokenSecret ? { restTokenSecret } : {}),
          logRetention,
          alarmAction: props.alarmAction,
          tracing,
        })
      : undefined;

    props.table.grant(this.webhook.role, 'dynamodb:GetItem', 'dynamodb:Query');
    props.table.grant(
      this.worker.role,
      'dynamodb:GetItem',
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
    );
    props.jobsQueue.grantSendMessages(this.webhook.role);
    if (this.a2aPush) {
      props.table.grant(this.a2aPush.role, 'dynamodb:GetItem', 'dynamodb:Query');
      props.jobsQueue.grantSendMessages(this.a2aPush.role);
      props.pushKey?.grantRead(this.a2aPush.role);
    }
    // The worker derives push tokens for A2A agents and opens the A2A server's push credentials.
    props.pushKey?.grantRead(this.worker.role);
    for (const fn of [this.worker, this.delay]) {
      props.jobsQueue.grantSendMessages(fn.role);
      props.delayQueue.grantSendMessages(fn.role);
    }
    if (props.secretNames.length > 0) {
      this.worker.role.addToPrincipalPolicy(
        secretReadStatement(
          this,
          props.secretNames.map((name) => `${prefix}${name}`),
        ),
      );
      const patterns = props.secretNames.filter((name) => name.includes('*'));
      acknowledgeConversationSecrets(
        this.worker.role,
        patterns.map(
          (name) =>
            `arn:<AWS::Partition>:secretsmanager:<AWS::Region>:<AWS::AccountId>:secret:${prefix}${name}-??????`,
        ),
      );
    }
    if (restTokenSecret) {
      Secret.fromSecretNameV2(this, 'RestToken', restTokenSecret).grantRead(this.webhook.role);
    }
    const channelSecrets = channelSecretNames(props.channels);
    if (channelSecrets.length > 0) {
      this.webhook.role.addToPrincipalPolicy(
        secretReadStatement(
          this,
          channelSecrets.map((name) => `${prefix}${name}`),
        ),
      );
    }

    // The workers and the delay function draw on the account's unreserved executions, of which
    // Lambda keeps at least 100 beside any reservation: by default they use at most 22 of them.
    this.worker.function.addEventSource(
      // One job per invocation: each job gets the whole timeout, and none waits behind another.
      new SqsEventSource(props.jobsQueue, {
        batchSize: 1,
        reportBatchItemFailures: true,
        maxConcurrency: props.concurrency.workerConcurrency,
      }),
    );
    this.delay.function.addEventSource(
      new SqsEventSource(props.delayQueue, {
        batchSize: 10,
        reportBatchItemFailures: true,
        maxConcurrency: DELAY_CONCURRENCY,
      }),
    );
    new FailedJobsAlarm(this, 'FailedJobs', props.alarmAction);

    this.endpoint = new HttpEndpoint(this, 'Http', {
      handler: this.webhook.function,
      channelPaths,
      ...(this.a2aPush ? { pushHandler: this.a2aPush.function } : {}),
      logRetention,
      // Sized so that requests held until the timeout never need more than the webhook's
      // executions, reserved or not: with the defaults, 2 requests a second and bursts of 42.
      throttle: webhookThrottle(props.concurrency.webhookConcurrency),
    });
    // Agents notify the API: the worker registers push URLs under it.
    if (this.a2aPush) this.worker.function.addEnvironment('A2A_PUSH_BASE_URL', this.endpoint.url);
    if (this.a2aServer) {
      new CfnOutput(this, 'A2AUrl', {
        value: this.a2aServer.endpoint.url,
        description:
          'Base URL of the A2A server (<url>.well-known/agent-card.json, <url>a2a), responses streamed',
      });
    }
    if (this.webChat) {
      new CfnOutput(this, 'WebChatStreamUrl', {
        value: this.webChat.endpoint.url,
        description:
          "Base URL of the web chat's stream (GET <url>webhooks/socketio/stream/{sender}); messages go to POST <ApiUrl>webhooks/socketio/webhook",
      });
    }
    new CfnOutput(this, 'ApiUrl', {
      value: this.endpoint.url,
      description: 'Base URL of the HTTP API (POST <url>webhooks/rest/webhook)',
    });
    if (restTokenSecret) {
      new CfnOutput(this, 'RestTokenSecret', {
        value: restTokenSecret,
        description: 'Secret holding the bearer token of the REST routes',
      });
    }
    for (const fn of [
      this.webhook,
      this.worker,
      this.delay,
      ...(this.a2aPush ? [this.a2aPush] : []),
      ...(this.a2aServer ? [this.a2aServer.function] : []),
      ...(this.webChat ? [this.webChat.function] : []),
    ]) {
      if (tracing) acknowledgeTracingWildcard(fn.role);
      acknowledgeRuntimePin(fn.function);
    }
    acknowledgeRouteAuthorization(this.endpoint.api, restTokenSecret !== undefined);
    if (this.a2aServer) acknowledgeA2AServerApi(this.a2aServer.endpoint.api);
    if (this.webChat)
      acknowledgeWebChatApi(this.webChat.endpoint.api, restTokenSecret !== undefined);
  }
}
