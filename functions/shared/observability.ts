import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import { Tracer } from '@aws-lambda-powertools/tracer';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';

const serviceName = 'switchboard';

/** Structured JSON logs; each handler sets the correlation id of what it works on. */
export const logger = new Logger({ serviceName });
/** CloudWatch metrics in the embedded metric format, flushed after each invocation. */
export const metrics = new Metrics({ namespace: 'Switchboard', serviceName });
/** X-Ray tracing; it switches itself off outside Lambda. */
export const tracer = new Tracer({ serviceName });

/**
 * Wraps a handler with the Powertools middlewares: tracing, Lambda context in logs, metrics. A
 * streaming handler (`streamifyResponse`) answers `{statusCode, headers, body}` with a readable
 * body, which middy streams; its response is not traced, as it is a stream.
 */
export function lambdaHandler<TEvent, TResult>(
  handler: (event: TEvent, context: Context) => Promise<TResult>,
  options: { streamifyResponse?: boolean } = {},
) {
  const streaming = options.streamifyResponse === true;
  return middy(handler, streaming ? { streamifyResponse: true } : {})
    .use(captureLambdaHandler(tracer, streaming ? { captureResponse: false } : {}))
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(logMetrics(metrics, { captureColdStartMetric: true }));
}
