import { type Duration, RemovalPolicy } from 'aws-cdk-lib';
import {
  AccessLogFormat,
  EndpointType,
  LambdaIntegration,
  LogGroupLogDestination,
  ResponseTransferMode,
  RestApi,
} from 'aws-cdk-lib/aws-apigateway';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';

/** A route of a streaming endpoint. */
export interface StreamingRoute {
  readonly path: string;
  readonly method: 'GET' | 'POST';
}

export interface StreamingEndpointProps {
  readonly description: string;
  readonly handler: IFunction;
  readonly routes: readonly StreamingRoute[];
  /** How long one response may stream (at most 15 minutes). */
  readonly timeout: Duration;
  readonly logRetention: RetentionDays;
  /** Steady requests per second across the API, and the burst above it. */
  readonly throttle: { readonly rateLimit: number; readonly burstLimit: number };
}

/** The stage the streaming API is deployed as; its URLs start with it. */
export const STREAMING_STAGE = 'stream';

/**
 * An API Gateway REST API whose Lambda proxy routes stream their responses
 * (`ResponseTransferMode.STREAM`): an HTTP API (v2) cannot stream, and a REST API keeps API
 * Gateway's throttling and access logs in front of the function, unlike a function URL. Its
 * function must be a streaming one (`awslambda.streamifyResponse`). A stream may last the
 * integration's timeout (15 minutes at most) and is closed after 5 minutes without a byte.
 */
export class StreamingEndpoint extends Construct {
  readonly api: RestApi;
  readonly accessLogs: LogGroup;

  constructor(scope: Construct, id: string, props: StreamingEndpointProps) {
    super(scope, id);
    this.accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: props.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.api = new RestApi(this, 'Api', {
      description: props.description,
      endpointConfiguration: { types: [EndpointType.REGIONAL] },
      cloudWatchRole: false,
      deployOptions: {
        stageName: STREAMING_STAGE,
        throttlingRateLimit: props.throttle.rateLimit,
        throttlingBurstLimit: props.throttle.burstLimit,
        accessLogDestination: new LogGroupLogDestination(this.accessLogs),
        accessLogFormat: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            ip: '$context.identity.sourceIp',
            requestTime: '$context.requestTime',
            method: '$context.httpMethod',
            path: '$context.resourcePath',
            status: '$context.status',
            responseLength: '$context.responseLength',
            latencyMs: '$context.responseLatency',
            integrationError: '$context.integrationErrorMessage',
          }),
        ),
      },
    });
    const integration = new LambdaIntegration(props.handler, {
      proxy: true,
      responseTransferMode: ResponseTransferMode.STREAM,
      timeout: props.timeout,
    });
    for (const route of props.routes) {
      this.api.root.resourceForPath(route.path).addMethod(route.method, integration);
    }
  }

  /** The API's base URL, its stage included (`https://…/stream/`). */
  get url(): string {
    return this.api.url;
  }
}
