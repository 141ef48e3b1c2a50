import { RemovalPolicy } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import {
  HttpApi,
  HttpMethod,
  type HttpStage,
  LogGroupLogDestination,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';

/** The routes of Switchboard's HTTP contract (DESIGN §1) served by the webhook function. */
export const ROUTES: readonly { path: string; method: HttpMethod }[] = [
  { path: '/health', method: HttpMethod.GET },
  { path: '/version', method: HttpMethod.GET },
  { path: '/webhooks/rest/webhook', method: HttpMethod.POST },
  { path: '/conversations/{sender}/tracker', method: HttpMethod.GET },
];

/** The route A2A agents notify (the A2A push receiver's). */
export const PUSH_ROUTE = { path: '/a2a/push/{sender}/{run}', method: HttpMethod.POST } as const;

export interface HttpEndpointProps {
  readonly handler: IFunction;
  /** The webhook paths of the messaging channels (all `POST`), served by `handler`. */
  readonly channelPaths?: readonly string[];
  /** The A2A push receiver, served at PUSH_ROUTE when given. */
  readonly pushHandler?: IFunction;
  readonly logRetention: RetentionDays;
  /** Steady requests per second across the API, and the burst above it. */
  readonly throttle: { readonly rateLimit: number; readonly burstLimit: number };
}

/** An API Gateway HTTP API with the contract's routes, throttling and JSON access logs. */
export class HttpEndpoint extends Construct {
  readonly api: HttpApi;
  readonly stage: HttpStage;
  readonly accessLogs: LogGroup;

  constructor(scope: Construct, id: string, props: HttpEndpointProps) {
    super(scope, id);
    this.api = new HttpApi(this, 'Api', {
      description:
        'Switchboard: health, version, REST channel, conversation trackers, A2A push notifications',
      createDefaultStage: false,
    });
    this.accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: props.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.stage = this.api.addStage('DefaultStage', {
      stageName: '$default',
      autoDeploy: true,
      throttle: props.throttle,
      accessLogSettings: {
        destination: new LogGroupLogDestination(this.accessLogs),
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            ip: '$context.identity.sourceIp',
            requestTime: '$context.requestTime',
            routeKey: '$context.routeKey',
            status: '$context.status',
            responseLength: '$context.responseLength',
            latencyMs: '$context.responseLatency',
            integrationError: '$context.integrationErrorMessage',
          }),
        ),
      },
    });
    const integration = new HttpLambdaIntegration('Webhook', props.handler);
    for (const route of ROUTES) {
      // HEAD answers as GET does, without a body; the function handles both.
      const methods =
        route.method === HttpMethod.GET ? [HttpMethod.GET, HttpMethod.HEAD] : [route.method];
      this.api.addRoutes({ path: route.path, methods, integration });
    }
    for (const path of props.channelPaths ?? []) {
      this.api.addRoutes({ path, methods: [HttpMethod.POST], integration });
    }
    if (props.pushHandler) {
      this.api.addRoutes({
        path: PUSH_ROUTE.path,
        methods: [PUSH_ROUTE.method],
        integration: new HttpLambdaIntegration('A2APush', props.pushHandler),
      });
    }
  }

  /** The API's base URL (`https://…/`). */
  get url(): string {
    return this.stage.url;
  }
}
